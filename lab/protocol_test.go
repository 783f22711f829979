package lab

import (
	"strconv"
	"testing"
	"unicode/utf8"
)

// FuzzParseMessage: any text parses without panicking, to a known kind
// or to none, and a parsed message written back out parses the same.
func FuzzParseMessage(f *testing.F) {
	for _, s := range []string{"CONNECTED c1", "DISCONNECTED 503", "CLOSE", "CLOSED\n", "DISCONNECTED x",
		"DISCONNECTED 1000", "CONNECTED", "", " CONNECTED  c2 ", "CLOSED extra", "MESSAGE hello", "MESSAGE", "MESSAGE  two words ",
		"CONNECTED c3 maxIdleInterval=500", "CONNECTED c3 maxIdleInterval=0", "CONNECTED c3 maxIdleInterval=x", "CONNECTED c3 other=1", "HEARTBEAT", "HEARTBEAT 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m := parseMessage(s)
		var again string
		switch m.kind {
		case "":
			return
		case msgConnected:
			if m.details.MaxIdleInterval < 0 || m.details.ConnectionStateTTL != 0 {
				t.Fatalf("%q: details %+v", s, m.details)
			}
			again = connectedText(m.id, m.details)
		case msgDisconnected:
			if m.status < 0 || m.status > 999 {
				t.Fatalf("%q: status %d out of range", s, m.status)
			}
			again = msgDisconnected + " " + strconv.Itoa(m.status)
		case msgClose, msgClosed, msgHeartbeat:
			again = m.kind
		case msgMessage:
			if m.text == "" {
				t.Fatalf("%q: a MESSAGE without text", s)
			}
			again = msgMessage + " " + m.text
		default:
			t.Fatalf("%q: unknown kind %q", s, m.kind)
		}
		if utf8.ValidString(s) && parseMessage(again) != m {
			t.Fatalf("%q parsed as %+v; written back as %q it parses as %+v", s, m, again, parseMessage(again))
		}
	})
}
