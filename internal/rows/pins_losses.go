package rows

// lossPins are the rows pinned by the scenarios of the decision for a
// transport lost before CONNECTED (engine/testdata/scenarios/17-losses.txt):
// the short-circuit websocket lost after its timer fired, and the HTTP
// that takes over a redirected websocket-check attempt at the give-up point
// on the primary.
var lossPins = map[string][]string{
	"WC-CONNECTING-timer-websocket-give-up-1": {"websocket-check-redirected-attempt-gives-up-to-http-on-the-primary"},
	"ALL-CONNECTING-connectivity-1":           {"websocket-check-redirected-attempt-gives-up-to-http-on-the-primary"},
}

func init() { addPins(lossPins) }
