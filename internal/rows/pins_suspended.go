package rows

// suspendedReasonPins are the rows pinned by the scenarios of
// engine/testdata/scenarios/29-suspended-reason.txt: SUSPENDED entered
// through an attempt that has no failure to give it carries a timeout
// (RTN14e), whichever row ends the attempt.
var suspendedReasonPins = map[string][]string{
	"ALL-CONNECTING-lost-suspended-4": {"suspended-after-clean-closes-carries-a-timeout"},
	"ALL-START-mode-resume-2":         {"suspended-after-clean-closes-carries-a-timeout"},
	"ALL-CONNECTING-timer-state-ttl-2": {"suspended-at-the-attempt-limit-carries-a-timeout-websocket-check",
		"suspended-at-connectivity-down-carries-a-timeout-websocket-check"},
}

func init() { addPins(suspendedReasonPins) }
