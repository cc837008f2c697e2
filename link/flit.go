package link

// Flit is the unit of flow control and of bandwidth (a flit is a phit here).
// Every flit carries its packet's identity so that actors, which share no
// memory, can route, check and time it. It is 32 bytes (half a cache line)
// and is copied by value.
type Flit struct {
	Src, Dst int32  // source and destination node
	Seq      uint32 // packet sequence number at its source (0, 1, 2, ...)
	Index    uint16 // position in the packet, 0 = head
	Size     uint16 // packet length in flits
	VC       uint8  // virtual channel (or queue) the flit travels on
	Class    uint8  // message class (e.g. short/long)
	Route    uint8  // routing-function state carried with the packet (e.g. dateline crossings)
	Hops     uint8  // router-to-router hops taken so far (saturates at 255)
	// InjDelay is the number of cycles the packet waited in its source queue:
	// its head left the source network interface at cycle Gen+InjDelay.
	InjDelay uint32
	Gen      int64 // cycle the packet was generated (entered its source queue)
}

// Inj is the cycle the packet's head flit left its source network interface.
func (f *Flit) Inj() int64 { return f.Gen + int64(f.InjDelay) }

// Head reports whether f is its packet's first flit.
func (f *Flit) Head() bool { return f.Index == 0 }

// Tail reports whether f is its packet's last flit.
func (f *Flit) Tail() bool { return f.Index+1 == f.Size }

// MaxClasses is the most message classes a network keeps apart: the
// traffic classes a run may define (each with its statistics, its VCs and
// its share of the routers' arbiters), and the classes of the mechanisms
// that use two (short and long, request and reply).
const MaxClasses = 4

// Credit returns one buffer slot of a virtual channel (or queue) upstream.
type Credit struct {
	VC uint16
}
