package secrets

import "slices"

// automaton finds every occurrence of a set of keywords (ASCII, matched
// case-insensitively) in one pass: an Aho-Corasick machine with a dense
// transition table over a compressed alphabet.
type automaton struct {
	class  [256]uint8 // byte → alphabet class (0 = a byte in no keyword)
	nclass int
	delta  []int32   // state*nclass + class → next state
	out    [][]int32 // state → keywords ending here
	lens   []int     // keyword → length
}

// lower folds ASCII upper case.
var lower = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if i >= 'A' && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// newAutomaton builds the machine of keywords (already lower case, not empty).
func newAutomaton(keywords []string) *automaton {
	a := &automaton{lens: make([]int, len(keywords))}
	n := 1
	for _, k := range keywords {
		for i := 0; i < len(k); i++ {
			c := lower[k[i]]
			if a.class[c] == 0 {
				a.class[c] = uint8(n)
				if c >= 'a' && c <= 'z' {
					a.class[c-'a'+'A'] = uint8(n)
				}
				n++
			}
		}
	}
	a.nclass = n
	// The trie, in the dense table: a state's row holds its children (0,
	// the root, is no one's child, so 0 is no edge).
	a.delta = make([]int32, n, trieStates(keywords)*n)
	a.out = make([][]int32, 1, trieStates(keywords))
	for ki, k := range keywords {
		a.lens[ki] = len(k)
		s := 0
		for i := 0; i < len(k); i++ {
			e := s*n + int(a.class[k[i]])
			if a.delta[e] == 0 {
				a.delta[e] = int32(len(a.out))
				a.delta = append(a.delta, make([]int32, n)...)
				a.out = append(a.out, nil)
			}
			s = int(a.delta[e])
		}
		a.out[s] = append(a.out[s], int32(ki))
	}
	// Failure links, breadth first, folded into the table: a state's
	// missing edges become its failure's (a state's row is complete before
	// any deeper state's is read).
	fail := make([]int32, len(a.out))
	queue := make([]int32, 0, len(a.out))
	for c := 1; c < n; c++ {
		if next := a.delta[c]; next != 0 {
			queue = append(queue, next)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		a.out[s] = append(a.out[s][:len(a.out[s]):len(a.out[s])], a.out[fail[s]]...)
		row, frow := int(s)*n, int(fail[s])*n
		for c := 1; c < n; c++ {
			if next := a.delta[row+c]; next != 0 {
				fail[next] = a.delta[frow+c]
				queue = append(queue, next)
			} else {
				a.delta[row+c] = a.delta[frow+c]
			}
		}
	}
	return a
}

// scan calls hit with each keyword and the offset where it starts.
func (a *automaton) scan(p []byte, hit func(kw int32, start int)) {
	s := int32(0)
	n := int32(a.nclass)
	for i := 0; i < len(p); i++ {
		c := a.class[p[i]]
		if c == 0 {
			s = 0
			continue
		}
		s = a.delta[s*n+int32(c)]
		if out := a.out[s]; out != nil {
			for _, kw := range out {
				hit(kw, i+1-a.lens[kw])
			}
		}
	}
}

// any reports whether p holds one of the keywords.
func (a *automaton) any(p []byte) bool {
	s := int32(0)
	n := int32(a.nclass)
	for i := 0; i < len(p); i++ {
		c := a.class[p[i]]
		if c == 0 {
			s = 0
			continue
		}
		s = a.delta[s*n+int32(c)]
		if a.out[s] != nil {
			return true
		}
	}
	return false
}

// trieStates counts the states of the keywords' trie: the root and one per
// distinct prefix (sorted, each keyword adds what it does not share with
// the one before).
func trieStates(keywords []string) int {
	ks := slices.Clone(keywords)
	slices.Sort(ks)
	n, prev := 1, ""
	for _, k := range ks {
		i := 0
		for i < len(k) && i < len(prev) && k[i] == prev[i] {
			i++
		}
		n += len(k) - i
		prev = k
	}
	return n
}
