module github.com/reconnect-go/reconnect/examples

go 1.25

require (
	github.com/coder/websocket v1.8.15
	github.com/reconnect-go/reconnect v0.0.0
)

replace github.com/reconnect-go/reconnect => ../
