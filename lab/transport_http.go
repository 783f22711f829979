package lab

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/runner"
)

// openLongPoll opens an HTTP long-poll session on host. Viable: the
// connect request's 200 response headers arrived. Connected: its CONNECTED
// line arrived. Then it polls until the session ends.
func (c *Client) openLongPoll(host string, m reconnect.Mode, rep Reporter) Conn {
	l := newLifecycle(rep)
	l.onMessage = c.OnMessage
	hc := &http.Client{Transport: &http.Transport{DialContext: c.Dial, MaxIdleConnsPerHost: 2}}
	pollTimeout := c.PollTimeout
	if pollTimeout <= 0 {
		pollTimeout = 30 * time.Second
	}
	base := "http://" + host
	go func() {
		defer close(l.done)
		defer hc.CloseIdleConnections()
		id, f := connectLongPoll(l, hc, base+PathConnect+"?mode="+m.String()+c.query())
		if id == "" {
			l.end(f)
			return
		}
		// The close request runs beside the poll.
		closed := make(chan reconnect.Failure, 1)
		closer := make(chan struct{})
		ctx, cancel := context.WithCancel(l.ctx)
		go func() {
			defer close(closer)
			select {
			case <-l.closeReq:
				if post(ctx, hc, base+PathClose+"?session="+id+c.query()) == msgClosed {
					closed <- reconnect.Failure{}
					cancel()
				}
			case <-ctx.Done():
			}
		}()
		f = pollLongPoll(ctx, hc, base+PathRecv+"?session="+id+c.query(), pollTimeout, l.activity)
		select {
		case <-l.closeReq:
			// The poll may end before the close request's answer is read.
			<-closer
		default:
		}
		cancel()
		<-closer
		select {
		case f = <-closed:
		default:
		}
		if l.ctx.Err() != nil {
			// Closed by Close: abort the session, bounded by a second.
			actx, acancel := context.WithTimeout(context.Background(), time.Second)
			post(actx, hc, base+PathClose+"?session="+id+"&abort=1"+c.query())
			acancel()
		}
		l.end(f)
	}()
	return l
}

// post POSTs to url and returns the first line of the answer's body.
func post(ctx context.Context, hc *http.Client, url string) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return ""
	}
	resp, err := hc.Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	line, _ := bufio.NewReader(io.LimitReader(resp.Body, 1<<10)).ReadString('\n')
	return parseMessage(line).kind
}

// connectLongPoll makes the connect request and reads CONNECTED; it
// returns the session id, or "" and the failure.
func connectLongPoll(l *lifecycle, hc *http.Client, url string) (string, reconnect.Failure) {
	req, err := http.NewRequestWithContext(l.ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", reconnect.Failure{Kind: reconnect.FailureOther}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", runner.Classify(err, nil)
	}
	defer resp.Body.Close()
	id := resp.Header.Get(HeaderSession)
	if resp.StatusCode != http.StatusOK || id == "" {
		return "", runner.Classify(nil, resp)
	}
	l.viable()
	br := bufio.NewReader(io.LimitReader(resp.Body, 1<<10))
	line, err := br.ReadString('\n')
	msg := parseMessage(line)
	if err != nil || msg.kind != msgConnected {
		return "", reconnect.Failure{Kind: reconnect.FailureUnreachable}
	}
	l.connectedNow(msg.details)
	// The rest of the body: the application messages sent with CONNECTED.
	for {
		line, err := br.ReadString('\n')
		if msg := parseMessage(line); msg.kind == msgMessage {
			l.activity()
			l.message(msg.text)
		}
		if err != nil {
			return id, reconnect.Failure{}
		}
	}
}

// pollLongPoll polls the session until it ends, and returns why; every
// answer the server gives is activity.
func pollLongPoll(ctx context.Context, hc *http.Client, url string, timeout time.Duration, activity func()) reconnect.Failure {
	lost := reconnect.Failure{Kind: reconnect.FailureUnreachable}
	for {
		pctx, cancel := context.WithTimeout(ctx, timeout)
		req, err := http.NewRequestWithContext(pctx, http.MethodGet, url, nil)
		if err != nil {
			cancel()
			return reconnect.Failure{Kind: reconnect.FailureOther}
		}
		resp, err := hc.Do(req)
		if err != nil {
			cancel()
			return lost
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		resp.Body.Close()
		cancel()
		if err == nil {
			activity()
		}
		switch {
		case err != nil:
			return lost
		case resp.StatusCode == http.StatusNoContent:
			continue
		case resp.StatusCode == http.StatusOK:
			if msg := parseMessage(string(body)); msg.kind == msgDisconnected {
				return reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: msg.status}
			}
			continue
		default:
			return lost
		}
	}
}
