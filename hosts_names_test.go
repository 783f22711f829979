package reconnect

import (
	"errors"
	"strings"
	"testing"
)

// Invalid UTF-8 cannot be written in the JSON fixtures; it is rejected
// like every other byte outside ASCII letters, digits, '-', '_' and '.'.
func TestResolveHostsRejectsInvalidUTF8(t *testing.T) {
	for _, o := range []EndpointOptions{
		{Endpoint: "rt.example.com\xff"},
		{Endpoint: "\xc3.example.com"},
		{Endpoint: "acme\xff"},
		{Environment: "acme\xff"},
		{FallbackHosts: []string{"fb\xfe.example.com"}},
	} {
		_, err := ResolveHosts(o)
		var fe *FieldError
		if !errors.As(err, &fe) || !strings.Contains(fe.Value, `\x`) {
			t.Errorf("%+q: err = %v, want a *FieldError quoting the bad byte", o, err)
		}
	}
}

// Every error names the option, quotes the value and says what is wrong.
func TestResolveHostsErrorsNameOptionValueAndRule(t *testing.T) {
	for _, c := range []struct {
		o    EndpointOptions
		want string
	}{
		{EndpointOptions{Endpoint: "localhost:8080"}, `EndpointOptions.Endpoint = "localhost:8080": holds ':' but is not an IPv6 address; a port is not part of a host name`},
		{EndpointOptions{Endpoint: "example.com:8080"}, `EndpointOptions.Endpoint = "example.com:8080": holds ':' but is not an IPv6 address; a port is not part of a host name`},
		{EndpointOptions{Endpoint: "-acme-"}, `is not a routing policy id: a label that starts or ends with '-'`},
		{EndpointOptions{Endpoint: "a..b"}, `is not a host name: an empty label`},
		{EndpointOptions{Endpoint: "rt.example.com\u00a0"}, `'\u00a0' at byte 14`},
	} {
		_, err := ResolveHosts(c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+q: err = %v, want it to contain %q", c.o, err, c.want)
		}
	}
}
