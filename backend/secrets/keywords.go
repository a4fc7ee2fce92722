package secrets

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
	// The trie.
	goTo := []map[uint8]int32{{}}
	a.out = [][]int32{nil}
	for ki, k := range keywords {
		a.lens[ki] = len(k)
		s := int32(0)
		for i := 0; i < len(k); i++ {
			c := a.class[k[i]]
			next, ok := goTo[s][c]
			if !ok {
				next = int32(len(goTo))
				goTo = append(goTo, map[uint8]int32{})
				a.out = append(a.out, nil)
				goTo[s][c] = next
			}
			s = next
		}
		a.out[s] = append(a.out[s], int32(ki))
	}
	// Failure links, breadth first, folded into a dense table.
	states := len(goTo)
	a.delta = make([]int32, states*n)
	fail := make([]int32, states)
	queue := make([]int32, 0, states)
	for c := 1; c < n; c++ {
		if next, ok := goTo[0][uint8(c)]; ok {
			a.delta[c] = next
			queue = append(queue, next)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		a.out[s] = append(a.out[s], a.out[fail[s]]...)
		for c := 1; c < n; c++ {
			if next, ok := goTo[s][uint8(c)]; ok {
				fail[next] = a.delta[int(fail[s])*n+c]
				a.delta[int(s)*n+c] = next
				queue = append(queue, next)
			} else {
				a.delta[int(s)*n+c] = a.delta[int(fail[s])*n+c]
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
