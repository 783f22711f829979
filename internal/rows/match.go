package rows

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

var (
	tokenMu sync.Mutex
	tokenRE = map[string]*regexp.Regexp{}
	angle   = regexp.MustCompile(`<[^>]*>`)
)

// tokenMatch matches one token against a template token: <…> is any
// non-empty text, a|b either alternative.
func tokenMatch(tmpl, tok string) bool {
	tokenMu.Lock()
	re, ok := tokenRE[tmpl]
	if !ok {
		var alts []string
		for _, alt := range strings.Split(tmpl, "|") {
			parts := angle.Split(alt, -1)
			for i := range parts {
				parts[i] = regexp.QuoteMeta(parts[i])
			}
			alts = append(alts, strings.Join(parts, ".+"))
		}
		re = regexp.MustCompile("^(?:" + strings.Join(alts, "|") + ")$")
		tokenRE[tmpl] = re
	}
	tokenMu.Unlock()
	return re.MatchString(tok)
}

// LineMatch matches an action or event against a template; a last
// template token … matches any further tokens.
func LineMatch(tmpl, line string) bool {
	tt, lt := strings.Fields(tmpl), strings.Fields(line)
	for i, tk := range tt {
		if tk == "…" && i == len(tt)-1 {
			return true
		}
		if i >= len(lt) || !tokenMatch(tk, lt[i]) {
			return false
		}
	}
	return len(tt) == len(lt)
}

// SeqMatch matches the actions of one step against a row's templates; a
// template … matches any run of actions.
func SeqMatch(tmpl, got []string) bool {
	if len(tmpl) == 0 {
		return len(got) == 0
	}
	if tmpl[0] == "…" {
		for i := 0; i <= len(got); i++ {
			if SeqMatch(tmpl[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && LineMatch(tmpl[0], got[0]) && SeqMatch(tmpl[1:], got[1:])
}

// Matches reports whether one engine step is an instance of r: policy is
// wf, hf or wc; before is the state before the event; event and actions
// are in the fixture grammar, the actions in the order the engine emitted
// them.
func (r Row) Matches(policy, before, event string, actions []string) bool {
	if !slices.Contains(r.Policies, policy) {
		return false
	}
	if r.States[0] != "any" && !slices.Contains(r.States, before) {
		return false
	}
	if r.Events[0] != "any" && !slices.ContainsFunc(r.Events, func(e string) bool { return LineMatch(e, event) }) {
		return false
	}
	for _, w := range r.Without {
		if slices.ContainsFunc(actions, func(a string) bool { return LineMatch(w, a) }) {
			return false
		}
	}
	return SeqMatch(r.Actions, actions)
}

// Explain returns the rows, in table order, that one engine step is an
// instance of (see Row.Matches), most specific first: the rows that name
// the state or the event (their ID is not an -ANY- one) when any does,
// else the cross-cutting ones; placeholders are never returned. Rows
// differ by their condition (When), which is prose: for a step with no
// action, several rows can match, and all of them are returned.
func Explain(policy, before, event string, actions []string) []Row {
	var specific, general []Row
	for _, r := range All {
		switch {
		case r.Placeholder || !r.Matches(policy, before, event, actions):
		case strings.Contains(r.ID, "-ANY-"):
			general = append(general, r)
		default:
			specific = append(specific, r)
		}
	}
	if len(specific) > 0 {
		return specific
	}
	return general
}
