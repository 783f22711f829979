package rows

// differentialConfigPins are the rows pinned by the scenarios of what the
// engine differential found once its generators varied every
// configuration key (engine/testdata/scenarios/33-differential-config.txt):
// hosts lowered, the fallbackHosts option's under the default endpoint too;
// the adaptive short circuit's product rounded to the nanosecond.
var differentialConfigPins = map[string][]string{
	"HF-START-http-1":                     {"fallback-hosts-in-capitals-are-lowered"},
	"ALL-CONNECTING-lost-flow-fallback-1": {"fallback-hosts-in-capitals-are-lowered"},
	"ALL-CONNECTING-connectivity-1":       {"fallback-hosts-in-capitals-are-lowered"},
	"WF-START-ws-1":                       {"endpoint-in-capitals-is-lowered"},
	"WF-CONNECTING-dialed-1": {"adaptive-short-circuit-rounds-to-the-nearest-nanosecond",
		"adaptive-short-circuit-rounds-to-the-nearest-nanosecond-on-a-small-rtt"},
	"ALL-INITIALIZED-connect-1": {"fallback-hosts-in-capitals-are-lowered", "endpoint-in-capitals-is-lowered"},
}

func init() { addPins(differentialConfigPins) }
