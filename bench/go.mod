module github.com/reconnect-go/reconnect/bench

go 1.26.0

replace github.com/reconnect-go/reconnect => ../

require (
	github.com/cenkalti/backoff/v4 v4.3.0
	github.com/cenkalti/backoff/v5 v5.0.3
	github.com/jpillora/backoff v1.0.0
	github.com/reconnect-go/reconnect v0.0.0
	github.com/sethvargo/go-retry v0.3.0
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
)

require github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect

tool golang.org/x/perf/cmd/benchstat
