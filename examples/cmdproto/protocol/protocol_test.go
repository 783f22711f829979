package protocol

import (
	"errors"
	"testing"
)

func TestParseFrame(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Frame
		bad  bool
	}{
		{in: `{"ok":{"session":"s-1"}}`, want: Frame{OK: &Session{ID: "s-1"}}},
		{in: `{"error":{"code":4401,"message":"no"}}`, want: Frame{Error: &Error{Code: 4401, Message: "no"}}},
		{in: `{"type":"ping"}`, want: Frame{Type: TypePing}},
		{in: `{"type":"event","data":"hi"}`, want: Frame{Type: TypeEvent, Data: "hi"}},
		{in: `{}`, bad: true},                              // none set
		{in: `{"ok":{},"type":"ping"}`, bad: true},         // two set
		{in: `{"error":{"message":"no code"}}`, bad: true}, // an error without a code
		{in: `{"type":"pong"}`, bad: true},                 // an unknown type
		{in: `[1,2]`, bad: true},                           // not an object
		{in: `{"ok":`, bad: true},                          // cut short
		{in: `{"type":"ping","data":"extra is fine"}`, want: Frame{Type: TypePing, Data: "extra is fine"}},
	} {
		got, err := ParseFrame([]byte(tc.in))
		if tc.bad {
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("ParseFrame(%s) = %+v, %v; want ErrMalformed", tc.in, got, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseFrame(%s): %v", tc.in, err)
			continue
		}
		if string(EncodeFrame(got)) != string(EncodeFrame(tc.want)) {
			t.Errorf("ParseFrame(%s) = %s, want %s", tc.in, EncodeFrame(got), EncodeFrame(tc.want))
		}
	}
}

func TestParseCommand(t *testing.T) {
	for in, ok := range map[string]bool{
		`{"cmd":"connect","token":"t"}`: true,
		`{"cmd":"publish","data":"x"}`:  true,
		`{"cmd":"close"}`:               true,
		`{"cmd":"subscribe"}`:           false,
		`{}`:                            false,
		`"connect"`:                     false,
	} {
		_, err := ParseCommand([]byte(in))
		if (err == nil) != ok || (err != nil && !errors.Is(err, ErrMalformed)) {
			t.Errorf("ParseCommand(%s): %v, want ok=%v", in, err, ok)
		}
	}
}

func TestErrorText(t *testing.T) {
	if got := (&Error{Code: CodeUnauthorized, Message: "bad token"}).Error(); got != "cmdproto error 4401: bad token" {
		t.Errorf("Error() = %q", got)
	}
}

// FuzzParse: no input panics, and what parses encodes to a frame that
// parses to the same again.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"ok":{"session":"s"}}`, `{"type":"ping"}`, `{"error":{"code":1}}`, `{"cmd":"connect"}`, `nul`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if fr, err := ParseFrame(b); err == nil {
			again, err := ParseFrame(EncodeFrame(fr))
			if err != nil || string(EncodeFrame(again)) != string(EncodeFrame(fr)) {
				t.Fatalf("%s: re-encoded %s does not parse back: %v", b, EncodeFrame(fr), err)
			}
		}
		if c, err := ParseCommand(b); err == nil {
			if again, err := ParseCommand(EncodeCommand(c)); err != nil || again != c {
				t.Fatalf("%s: re-encoded command does not parse back: %v", b, err)
			}
		}
	})
}
