package routing

// ClassLister is implemented by state lists that can leave out the visits
// whose decisions add, beyond what the other visits add, only
// dependencies from a VC class to a higher one: ListStatesWithin is
// ListStates without them.
type ClassLister interface {
	ListStatesWithin(visit func(r, in int, vcMask uint64, route uint8, dst int) bool)
}

// DuatoChecked is implemented by the Escapers that Duato's extended check
// (checkDuatoStates, referenceDuato) checks (they list no states of their
// own, whatever they embed).
type DuatoChecked interface {
	Escaper
	DuatoChecked()
}

// StateLister is implemented by routing functions that list the states of
// the channel dependency check themselves, in time linear in the network,
// instead of leaving them to the reference search over every destination.
//
// ListStates calls visit for every reachable state of a packet that holds
// a router-to-router channel: router r, the input port in it arrived on,
// the set vcMask of the VCs it can hold there, its routing state route, and
// a destination dst; over all calls, the routing decisions at (r, in, v,
// route) of every VC v in vcMask for the listed destinations must be
// exactly those of all destinations with which that state is reachable.
// States may repeat. visit returns false to stop the listing.
type StateLister interface {
	ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool)
}

// VCClassed is implemented by routing functions whose Route reads the
// packet's VC only through its VC class, v mod VCClasses() (VCClass), and
// offers whole classes (ClassMask): the channel dependency graph is then
// one of classes (cdg). TestStateListsMatchReference holds the claim to
// the reference search, which asks Route for every VC, and to the graph
// of VCs, which must agree on whether there is a cycle.
type VCClassed interface{ VCClasses() int }
