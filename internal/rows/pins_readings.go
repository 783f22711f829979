package rows

// readingPins are the rows pinned by the scenarios of
// engine/testdata/scenarios/30-readings.txt: a connect from CLOSING
// forgets the server's connectionStateTtl, and a token error that ends
// the attempt disposes in slot order.
var readingPins = map[string][]string{
	"ALL-CLOSING-connect-1": {"connect-from-closing-forgets-the-server-connection-state-ttl"},
	"ALL-CONNECTING-token-again-2": {"token-error-after-a-renewal-disposes-in-slot-order",
		"token-error-after-a-renewal-on-the-resume-disposes-in-slot-order"},
	"ALL-CONNECTING-token-unrenewable-3": {"token-error-cannot-renew-while-connecting-disposes-in-slot-order",
		"token-error-cannot-renew-on-the-resume-disposes-in-slot-order"},
}

func init() { addPins(readingPins) }
