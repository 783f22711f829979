package conform

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// fakeAdapter answers like Self but misbehaves as b says, at the hello or
// at the third case. It runs in a child process (see TestMain).
func fakeAdapter(b string) {
	switch b {
	case "sleep": // a grandchild that holds the pipes
		time.Sleep(time.Hour)
		return
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<22)
	out := json.NewEncoder(os.Stdout)
	if b == "flood-stderr" {
		chunk := strings.Repeat("noise ", 1000)
		for range 2000 { // about 12 MB
			fmt.Fprintln(os.Stderr, chunk)
		}
	}
	n := 0
	for in.Scan() {
		var req Request
		_ = json.Unmarshal(in.Bytes(), &req)
		if req.Type == "hello" {
			resp := Self{}.Handle(req)
			switch b {
			case "no-hello":
				time.Sleep(time.Hour)
			case "wrong-protocol":
				resp.Protocol = 99
			case "empty-implements":
				resp.Implements = []string{}
			case "unknown-area":
				resp.Implements = []string{"RTB1"}
			case "unknown-key":
				fmt.Println(`{"type":"hello","protocol":1,"implement":["rtb1"],"name":"x"}`)
				continue
			case "evil-name":
				resp.Name = "x\n0 passed, 0 failed\x1b[2K\u202e"
			case "fork-exit-at-hello":
				forkSleeper()
				os.Exit(0)
			}
			_ = out.Encode(resp)
			continue
		}
		n++
		resp := Self{}.Handle(req)
		if n == 3 {
			switch b {
			case "crash":
				for i := range 25 {
					fmt.Fprintf(os.Stderr, "stderr line %d\n", i)
				}
				fmt.Fprintln(os.Stderr, "panic: adapter fell over")
				os.Exit(3)
			case "hang", "ignore-term":
				time.Sleep(time.Hour)
			case "fork-hang":
				forkSleeper()
				time.Sleep(time.Hour)
			case "fork-exit":
				forkSleeper()
				os.Exit(0)
			case "garbage":
				fmt.Println("this is not JSON")
				continue
			case "bare-nan":
				fmt.Printf(`{"id":%q,"result":{"coefficient":NaN}}`+"\n", req.ID)
				continue
			case "string-true":
				fmt.Printf(`{"id":%q,"result":{"coefficient":"1"}}`+"\n", req.ID)
				continue
			case "extra-key":
				resp.Result["surprise"] = true
			case "wrong-id":
				resp.ID = "some-other-case"
			case "twice":
				_ = out.Encode(resp)
			}
		}
		_ = out.Encode(resp)
	}
}

// forkSleeper starts a child that inherits stdout and stderr and sleeps.
func forkSleeper() {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CONFORM_FAKE=sleep")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
}
