module github.com/reconnect-go/reconnect/lab

go 1.25

require github.com/reconnect-go/reconnect v0.0.0

require github.com/coder/websocket v1.8.15

replace github.com/reconnect-go/reconnect => ../
