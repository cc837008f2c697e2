#include "textflag.h"

// func strided(p unsafe.Pointer, n, strideBytes int)
TEXT ·strided(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	MOVQ strideBytes+16(FP), DX
	TESTQ CX, CX
	JLE sdone
sloop:
	PREFETCHT0 (AX)
	ADDQ DX, AX
	DECQ CX
	JNZ sloop
sdone:
	RET

// func ringSlots(base unsafe.Pointer, slotBytes int, table unsafe.Pointer, recordBytes, n int, at int64)
TEXT ·ringSlots(SB), NOSPLIT, $0-48
	MOVQ base+0(FP), AX
	MOVQ slotBytes+8(FP), BX
	MOVQ table+16(FP), SI
	MOVQ recordBytes+24(FP), DX
	MOVQ n+32(FP), CX
	MOVQ at+40(FP), DI
	TESTQ CX, CX
	JLE rdone
rloop:
	MOVQ 8(SI), R8    // mask
	ANDQ DI, R8       // at & mask
	ADDQ 0(SI), R8    // + start
	IMULQ BX, R8      // * slotBytes
	ADDQ AX, R8       // + base
	PREFETCHT0 (R8)
	PREFETCHT0 -1(R8)(BX*1)
	ADDQ DX, SI
	DECQ CX
	JNZ rloop
rdone:
	RET
