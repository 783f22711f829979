// Command hangadapter answers the hello like a conformance adapter, then
// starts a child that holds its stdout and stderr and stops answering: a
// hostile adapter for the harness tests, started through "go run".
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"time"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<22)
	for n := 0; in.Scan(); n++ {
		if n == 0 {
			fmt.Println(`{"type":"hello","protocol":1,"implements":["rtb1"],"name":"hang"}`)
			continue
		}
		child := exec.Command("sleep", "3600")
		child.Stdout, child.Stderr = os.Stdout, os.Stderr
		_ = child.Start()
		time.Sleep(time.Hour)
	}
}
