#include "textflag.h"

// func lines(p unsafe.Pointer, n int)
TEXT ·lines(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	TESTQ CX, CX
	JLE done
loop:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	DECQ CX
	JNZ loop
done:
	RET

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
