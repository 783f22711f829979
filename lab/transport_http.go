package lab

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"time"

	"github.com/reconnect-go/reconnect"
)

// openLongPoll opens an HTTP long-poll session on host. Viable: the
// connect request's 200 response headers arrived. Connected: its CONNECTED
// line arrived. Then it polls until the session ends.
func (c *Client) openLongPoll(host string, m reconnect.Mode, report Report) Conn {
	l := newLifecycle(report)
	hc := &http.Client{Transport: &http.Transport{DialContext: c.Dial, MaxIdleConnsPerHost: 2}}
	pollTimeout := c.PollTimeout
	if pollTimeout <= 0 {
		pollTimeout = 30 * time.Second
	}
	go func() {
		defer close(l.done)
		defer hc.CloseIdleConnections()
		defer l.cancel()
		go func() {
			select {
			case <-l.closeReq:
				l.cancel()
			case <-l.ctx.Done():
			}
		}()
		base := "http://" + host
		id, f := connectLongPoll(l, hc, base+PathConnect+"?mode="+m.String())
		if id == "" {
			l.end(f)
			return
		}
		f = pollLongPoll(l, hc, base+PathRecv+"?session="+id, pollTimeout)
		if l.closing() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			if req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+PathClose+"?session="+id, nil); err == nil {
				if resp, err := hc.Do(req); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}
			cancel()
		}
		l.end(f)
	}()
	return l
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
		return "", classify(err, nil)
	}
	defer resp.Body.Close()
	id := resp.Header.Get(HeaderSession)
	if resp.StatusCode != http.StatusOK || id == "" {
		return "", classify(nil, resp)
	}
	l.viable()
	line, err := bufio.NewReader(io.LimitReader(resp.Body, 1<<10)).ReadString('\n')
	if msg := parseMessage(line); err != nil || msg.kind != msgConnected {
		return "", reconnect.Failure{Kind: reconnect.FailureUnreachable}
	}
	l.connectedNow()
	return id, reconnect.Failure{}
}

// pollLongPoll polls the session until it ends, and returns why.
func pollLongPoll(l *lifecycle, hc *http.Client, url string, timeout time.Duration) reconnect.Failure {
	lost := reconnect.Failure{Kind: reconnect.FailureUnreachable}
	for {
		ctx, cancel := context.WithTimeout(l.ctx, timeout)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
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
