package parity

import (
	"fmt"
	"strings"
)

// Entry is one line of a trace, as the Node driver prints it (JSON) and as
// Run records it.
type Entry struct {
	T  int64  `json:"t"`  // virtual time, ms
	Ev string `json:"ev"` // state, open, close, check, wscheck, renew, update, preference, error
	// state
	From    string `json:"from,omitempty"`
	To      string `json:"to,omitempty"`
	RetryIn int64  `json:"retryIn,omitempty"` // ms, rounded
	// open, close
	Transport string `json:"transport,omitempty"` // ws or http
	Host      string `json:"host,omitempty"`
	Mode      string `json:"mode,omitempty"` // open: clean, resume or recover
	// preference: the persisted value (null when removed); error: the text
	Value   *string `json:"value,omitempty"`
	Message string  `json:"message,omitempty"`
}

// Compared reports whether the comparison looks at e. Transport closes and
// the preference store are recorded for reading only: ably-js closes a
// socket on a later tick and only once it was created, the engine disposes
// every transport it opened, so close lines differ in bookkeeping, not in
// behaviour; the preference is compared through the opens it causes.
func (e Entry) Compared() bool {
	switch e.Ev {
	case "state", "open", "check", "wscheck", "renew", "update", "error":
		return true
	}
	return false
}

// String renders e on one line, e.g. "10000 open http main.realtime.ably.net"
// or "20000 state connecting→disconnected retryIn=15000".
func (e Entry) String() string {
	switch e.Ev {
	case "state":
		return fmt.Sprintf("%d state %s→%s retryIn=%d", e.T, e.From, e.To, e.RetryIn)
	case "open":
		return fmt.Sprintf("%d open %s %s %s", e.T, e.Transport, e.Host, e.Mode)
	case "close":
		return fmt.Sprintf("%d close %s %s", e.T, e.Transport, e.Host)
	case "preference":
		v := "none"
		if e.Value != nil {
			v = *e.Value
		}
		return fmt.Sprintf("%d preference %s", e.T, v)
	case "error":
		return fmt.Sprintf("%d error %s", e.T, strings.SplitN(e.Message, "\n", 2)[0])
	}
	return fmt.Sprintf("%d %s", e.T, e.Ev)
}

// Lines renders the compared entries of a trace.
func Lines(trace []Entry) []string {
	var out []string
	for _, e := range trace {
		if e.Compared() {
			out = append(out, e.String())
		}
	}
	return out
}

// Diff returns the lines only in a and the lines only in b, after aligning
// the two on a longest common subsequence; both are nil when a equals b.
func Diff(a, b []string) (onlyA, onlyB []string) {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			onlyA = append(onlyA, a[i])
			i++
		default:
			onlyB = append(onlyB, b[j])
			j++
		}
	}
	onlyA = append(onlyA, a[i:]...)
	onlyB = append(onlyB, b[j:]...)
	return onlyA, onlyB
}
