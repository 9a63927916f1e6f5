package nip29

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"github.com/nipcl/nipcl-conform/internal/text"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// livekitPath is NIP-29's well-known path of live audio/video support.
const livekitPath = "/.well-known/nip29/livekit"

// httpAnswer is one HTTP exchange with the relay: status and body.
type httpAnswer struct {
	status      int
	body        string
	contentType string
	location    string // a redirect's Location
}

func (a httpAnswer) String() string {
	s := fmt.Sprintf("HTTP %d", a.status)
	if a.location != "" {
		s += " Location " + a.location
	}
	if a.contentType != "" {
		s += " (" + a.contentType + ")"
	}
	return s + fmt.Sprintf(" %q", text.Clip(a.body, 200))
}

// livekitURL is the absolute http(s) URL of path on the relay's host.
func livekitURL(t *framework.T, path string) string {
	return livekitURLOf(t, t.Env.URL, path)
}

// livekitURLOf is path on base's HTTP form.
func livekitURLOf(t *framework.T, base, path string) string {
	hu, err := fixtures.HTTPURL(base)
	t.Must(err, "the relay's HTTP URL")
	u, err := url.Parse(hu)
	t.Must(err, "the relay's HTTP URL")
	u.Path, u.RawQuery, u.Fragment = path, "", ""
	return u.String()
}

// noRedirects is the HTTP client of the AV cases: it reports a redirect as
// the answer instead of following it (a redirect is not the 204 or the token
// NIP-29 asks the relay to serve at its path).
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// followRedirects is the client that follows a redirect (base/livekit/1
// judges where the well-known path leads when it redirects).
var followRedirects = &http.Client{}

// httpDo sends one request to the relay within the step deadline, without
// following redirects; a transport error or timeout fails the case through
// t.Must.
func httpDo(t *framework.T, method, target string, header http.Header, body string) httpAnswer {
	return httpVia(t, noRedirects, method, target, header, body)
}

// httpVia is httpDo with the given client.
func httpVia(t *framework.T, client *http.Client, method, target string, header http.Header, body string) httpAnswer {
	ctx, cancel := context.WithTimeout(t.Ctx(), t.Env.StepTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, target, strings.NewReader(body))
	t.Must(err, method+" "+target)
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := client.Do(req)
	t.Must(err, method+" "+target)
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return httpAnswer{resp.StatusCode, string(b), resp.Header.Get("Content-Type"), resp.Header.Get("Location")}
}

// livekitStatus asks /.well-known/nip29/livekit.
func livekitStatus(t *framework.T) httpAnswer {
	return httpDo(t, http.MethodGet, livekitURL(t, livekitPath), nil, "")
}

// livekitToken asks the token endpoint of group as c's actor, with a NIP-98
// Authorization (kind 27235, u = the endpoint's absolute URL as the relay
// knows itself, method POST) and LiveKit's standard POST with a JSON body.
// u is built on the relay's own URL (Env.SelfURL: --relay-url, or the
// relay behind --simulate-rtt's proxy), not the address the request goes
// to: NIP-98's "absolute URL" is the one the relay serves.
func livekitToken(t *framework.T, c *fixtures.Client, group string) httpAnswer {
	path := livekitPath + "/" + url.PathEscape(group)
	target := livekitURL(t, path)
	auth := c.Actor().Event(27235, nostr.Tags{{"u", livekitURLOf(t, t.Env.SelfURL(), path)}, {"method", http.MethodPost}}, "")
	raw, err := json.Marshal(auth)
	t.Must(err, "NIP-98 event")
	h := http.Header{}
	h.Set("Authorization", "Nostr "+base64.StdEncoding.EncodeToString(raw))
	h.Set("Content-Type", "application/json")
	return httpDo(t, http.MethodPost, target, h, "{}")
}

// jwtOf returns the participant token of a token endpoint's answer
// (participant_token, participantToken or token) and its claims.
func jwtOf(a httpAnswer) (token string, claims map[string]any, err error) {
	var body map[string]any
	if err := json.Unmarshal([]byte(a.body), &body); err != nil {
		return "", nil, fmt.Errorf("the answer is not a JSON object: %w", err)
	}
	for _, k := range []string{"participant_token", "participantToken", "token"} {
		if s, ok := body[k].(string); ok && s != "" {
			token = s
			break
		}
	}
	if token == "" {
		return "", nil, fmt.Errorf("the answer has no participant_token")
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return token, nil, fmt.Errorf("the token is not a JWT (%d dot-separated parts)", len(parts))
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return token, nil, fmt.Errorf("the JWT payload is not base64url: %w", err)
	}
	if err := json.Unmarshal(payload, &claims); err != nil {
		return token, nil, fmt.Errorf("the JWT payload is not JSON: %w", err)
	}
	return token, claims, nil
}

func ok2xx(a httpAnswer) bool { return a.status >= 200 && a.status < 300 }

// issuesJWT reports whether a token endpoint's answer issues a LiveKit
// token: a 2xx whose body is a JSON object carrying a JWT. Anything else (a
// refusal, a redirect, an HTML or text page, JSON without a token) issues
// none; why says what the answer lacks.
func issuesJWT(a httpAnswer) (ok bool, why string) {
	if !ok2xx(a) {
		return false, "not a 2xx answer"
	}
	if _, _, err := jwtOf(a); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// tokenIssued is issuesJWT without the reason.
func tokenIssued(a httpAnswer) bool {
	ok, _ := issuesJWT(a)
	return ok
}

// requireLiveKit observes AV support, by positive evidence only (NIP-29 §
// Live audio/video (AV) spaces, which is optional): a 204 at
// /.well-known/nip29/livekit, or a token endpoint that answers the owner of
// an open group with a JSON object carrying a JWT. A status code alone (a
// 200 catch-all page, a redirect, a 404) or silence is no evidence: the case
// is unsupported, saying what was seen. A relay that answers 204 but issues
// the owner no JWT makes it unsupported too (a group may lack AV).
func requireLiveKit(t *framework.T, owner *fixtures.Client, group string) (status, token httpAnswer) {
	status = livekitStatus(t)
	token = livekitToken(t, owner, group)
	issued, why := issuesJWT(token)
	if status.status != http.StatusNoContent && !issued {
		t.Unsupported("the relay shows no live audio/video support (NIP-29 AV spaces are optional; the evidence would be a 204 at /.well-known/nip29/livekit or a token endpoint answering a JSON object with a JWT): /.well-known/nip29/livekit answered " + status.String() + " and the group owner's token request " + token.String() + " (" + why + ")")
	}
	if !issued {
		t.Unsupported("the relay answers 204 at /.well-known/nip29/livekit but issued the group owner no LiveKit JWT (" + token.String() + ": " + why + "); a group may lack AV support")
	}
	return status, token
}

// avMetadata is the 9002 that gives an AV case's group the livekit tag: all
// the group's metadata as the case created it (name, about, the private flag
// of a private spec) and ["livekit"], so a relay reading 9002 as a put (NIP-29:
// "all the fields of group-metadata") keeps the group as it was.
func avMetadata(owner *fixtures.Client, ch string, spec fixtures.ChannelSpec) *nostr.Event {
	tags := nostr.Tags{{"name", spec.Name}, {"about", avAbout}}
	if spec.Visibility == fixtures.Private {
		tags = append(tags, nostr.Tag{fixtures.FlagPrivate})
	}
	for _, f := range spec.Flags {
		tags = append(tags, nostr.Tag{f})
	}
	return fixtures.EditChannel(owner.Actor(), ch, append(tags, nostr.Tag{"livekit"})...)
}

// avAbout is the about of the AV cases' groups: the one the case framework
// gives every group it creates with metadata.
const avAbout = "nipcl-conform test group"

// livekitSpecs: NIP-29 live audio/video endpoints (optional). The
// group gets a 9002 with its metadata and ["livekit"] first (a relay may
// ignore the tag).
func livekitSpecs() []framework.Spec {
	avGroup := func(t *framework.T, owner *fixtures.Client, spec fixtures.ChannelSpec) string {
		if spec.Name == "" {
			spec.Name = t.Unique("av")
		}
		ch := t.CreateChannel(owner, spec)
		if ok := t.Publish(owner, avMetadata(owner, ch, spec)); !ok.Accepted {
			framework.CheckPrefix("OK", ok.Reason)
			t.Note("the 9002 setting the livekit tag was refused: %s", ok)
		}
		return ch
	}
	return []framework.Spec{
		{Case: framework.NewCase("base/livekit/1", framework.SHOULD,
			"A relay that issues LiveKit tokens answers 204 at /.well-known/nip29/livekit.",
			"nip29/livekit.1"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := avGroup(t, owner, fixtures.ChannelSpec{})
				status, _ := requireLiveKit(t, owner, ch)
				if status.status >= 300 && status.status < 400 {
					followed := httpVia(t, followRedirects, http.MethodGet, livekitURL(t, livekitPath), nil, "")
					t.Note("/.well-known/nip29/livekit redirects (%s); followed: %s", status, followed)
					status = followed
				}
				if status.status != http.StatusNoContent {
					t.Violates("nip29/livekit.1", "NIP-29 (nip29/livekit.1): relays should serve status 204 at /.well-known/nip29/livekit to announce AV support; the relay issues tokens but answered %s", status)
				}
			}},
		{Case: framework.NewCase("base/livekit/2", framework.MUST,
			"The JWT the token endpoint issues to the group owner (NIP-98 kind 27235 with u and method) has a sub starting with the owner's lowercase hex pubkey.",
			"nip29/livekit.2"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := avGroup(t, owner, fixtures.ChannelSpec{})
				_, answer := requireLiveKit(t, owner, ch)
				_, claims, err := jwtOf(answer)
				if err != nil {
					t.Violates("nip29/livekit.2", "NIP-29 (nip29/livekit.2): the token endpoint's %s answer should carry the LiveKit JWT: %v", answer, err)
				}
				sub, _ := claims["sub"].(string)
				pk := owner.Actor().PubKey
				if len(sub) < 64 || sub[:64] != pk {
					t.Violates("nip29/livekit.2", "NIP-29 (nip29/livekit.2): relays MUST set the JWT's sub so that its first 64 characters are the caller's lowercase hex pubkey %s; sub is %q", pk, sub)
				}
				if len(sub) == 64 {
					t.Note("sub is the bare pubkey (no random suffix)")
				}
			}},
		{Case: framework.NewCase("base/livekit/3", framework.SHOULD,
			"The token endpoint refuses a private group's token to a non-member and issues it to the owner.",
			"nip29/livekit.3"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := avGroup(t, owner, fixtures.ChannelSpec{Visibility: fixtures.Private})
				t.RequireFlags(owner, ch, fixtures.FlagPrivate)
				requireLiveKit(t, owner, ch)
				outsider := t.Connect(t.Actor("outsider"))
				a := livekitToken(t, outsider, ch)
				if tokenIssued(a) {
					t.Violates("nip29/livekit.3", "NIP-29 (nip29/livekit.3): relays should enforce access control at JWT creation according to the group settings; a non-member got a token for the private group: %s", a)
				}
				t.Note("the non-member's token request issued no JWT: %s", a)
			}},
		{Case: framework.NewCase("base/livekit/4", framework.SHOULD,
			"Two tokens the endpoint issues to the same caller for the same group have different subs, each starting with the caller's pubkey: the relay appends an identifier after the 64 hex characters.",
			"nip29/livekit.4").
			WithReading("NIP-29 expects relays to append a random identifier (\"the same user can be issued multiple JWTs and join the same LiveKit room multiple times\"); what two samples can show of \"random\" is that the two suffixes differ. A relay that refuses the second token breaks the same sentence."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := avGroup(t, owner, fixtures.ChannelSpec{})
				_, first := requireLiveKit(t, owner, ch)
				second := livekitToken(t, owner, ch)
				if ok, why := issuesJWT(second); !ok {
					t.Violates("nip29/livekit.4", "NIP-29 (nip29/livekit.4): the same user can be issued multiple JWTs for one room; the owner's first token request got a JWT, the second none (%s): %s", why, second)
				}
				pk := owner.Actor().PubKey
				var subs []string
				for _, a := range []httpAnswer{first, second} {
					_, claims, err := jwtOf(a)
					if err != nil {
						t.Violates("nip29/livekit.4", "NIP-29 (nip29/livekit.4): the token endpoint's %s answer should carry the LiveKit JWT: %v", a, err)
					}
					sub, _ := claims["sub"].(string)
					if len(sub) < 64 || sub[:64] != pk {
						t.Note("sub %q does not start with the caller's pubkey (base/livekit/2 judges that)", sub)
					}
					subs = append(subs, sub)
				}
				if len(subs[0]) <= 64 || len(subs[1]) <= 64 || subs[0] == subs[1] {
					t.Violates("nip29/livekit.4", "NIP-29 (nip29/livekit.4): relays are expected to append a random identifier to the 64 characters of sub, so one user can join a room several times; two tokens for the owner had subs %q and %q", subs[0], subs[1])
				}
				t.Note("two subs: %q, %q", subs[0], subs[1])
			}},
	}
}
