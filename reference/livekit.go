package reference

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// NIP-29 live audio/video spaces: the relay answers 204 at
// /.well-known/nip29/livekit and issues LiveKit JWTs at
// /.well-known/nip29/livekit/<group-id> to callers that authorize with a
// NIP-98 event. No LiveKit server is needed: the relay mints the JWT
// itself (HS256 with a per-relay secret) and names a server URL that does
// not exist.
//
// The reference relay's reading:
//
//   - on by default; the policy switch no-livekit turns it off (404 on
//     both paths), as on a relay without AV support.
//   - the token endpoint takes GET or POST (LiveKit's standard endpoint
//     is a POST with an optional JSON body, which is ignored) with
//     "Authorization: Nostr <base64 event>": kind 27235, a valid
//     signature, created_at within 60 seconds, a u tag naming this URL
//     (host and path; http or https) and a method tag naming the request
//     method. Otherwise 401.
//   - every live group has an AV room (a group's livekit tag is not
//     required); an unknown or deleted group is 404. Access control
//     follows the group's settings: a private group issues tokens to
//     members only (403 for anyone else).
//   - the answer is 201 with {"server_url", "participant_token"}; the
//     JWT's sub is the caller's lowercase hex pubkey, "-", and 16 random
//     hex digits; video.room is the group id.

// livekitPath is the well-known path of NIP-29's AV support.
const livekitPath = "/.well-known/nip29/livekit"

// livekitServerURL is the LiveKit server the issued tokens name; the
// reference relay runs none.
const livekitServerURL = "wss://livekit.invalid"

// policyNoLiveKit turns the AV endpoints off.
const policyNoLiveKit = "no-livekit"

// serveLiveKit answers the AV paths.
func (r *Relay) serveLiveKit(w http.ResponseWriter, req *http.Request) {
	if r.policy(policyNoLiveKit) {
		http.NotFound(w, req)
		return
	}
	if req.URL.Path == livekitPath || req.URL.Path == livekitPath+"/" {
		// Fault livekit-status-200.
		if r.fault(faultLiveKitStatus200) {
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte("livekit supported\n"))
			return
		}
		w.WriteHeader(http.StatusNoContent)
		return
	}
	group, err := url.PathUnescape(strings.TrimPrefix(req.URL.Path, livekitPath+"/"))
	if err != nil || group == "" || strings.Contains(group, "/") {
		http.NotFound(w, req)
		return
	}
	if req.Method != http.MethodGet && req.Method != http.MethodPost {
		http.Error(w, "use GET or POST", http.StatusMethodNotAllowed)
		return
	}
	pubkey, why := r.nip98Caller(req)
	if why != "" {
		http.Error(w, "unauthorized: "+why, http.StatusUnauthorized)
		return
	}
	ch, err := loadChannel(r.sqlDB(), communityOf(req), group)
	if err != nil {
		http.Error(w, "error: "+err.Error(), http.StatusInternalServerError)
		return
	}
	if ch == nil || ch.Deleted {
		http.Error(w, "unknown group", http.StatusNotFound)
		return
	}
	if ch.Visibility == visibilityPrivate && ch.roleOf(pubkey) == "" && !r.permits(actJoinAV, "") {
		http.Error(w, "restricted: only members may join this group's AV room", http.StatusForbidden)
		return
	}
	token, err := r.mintLiveKitJWT(pubkey, group)
	if err != nil {
		http.Error(w, "error: "+err.Error(), http.StatusInternalServerError)
		return
	}
	// The reference runs no LiveKit server: a token holder stands for a
	// participant of the group's AV room, listed in its 39004.
	if err := r.write(communityOf(req), func(t *txn) error { return r.publishParticipants(t, ch.UUID, pubkey) }); err != nil {
		http.Error(w, "error: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]string{"server_url": livekitServerURL, "participant_token": token})
}

// nip98Caller checks the NIP-98 Authorization of req and returns the
// caller's pubkey, or why it is refused.
func (r *Relay) nip98Caller(req *http.Request) (pubkey, why string) {
	h := req.Header.Get("Authorization")
	if !strings.HasPrefix(h, "Nostr ") {
		return "", `missing "Authorization: Nostr <base64 event>"`
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(strings.TrimPrefix(h, "Nostr ")))
	if err != nil {
		return "", "the Authorization event is not base64"
	}
	var ev nostr.Event
	if err := json.Unmarshal(raw, &ev); err != nil {
		return "", "the Authorization event is not JSON"
	}
	if ev.Kind != 27235 {
		return "", "the Authorization event must be kind 27235"
	}
	if ok, err := ev.CheckSignature(); err != nil || !ok || ev.ID != ev.GetID() {
		return "", "the Authorization event's id or signature is invalid"
	}
	if d := time.Since(ev.CreatedAt.Time()); d > time.Minute || d < -time.Minute {
		return "", "the Authorization event's created_at is not within 60 seconds"
	}
	const badU = "the Authorization event's u tag must be this request's absolute URL"
	ut := ev.Tags.Find("u")
	if ut == nil {
		return "", badU
	}
	u, err := url.Parse(ut[1])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.EqualFold(u.Host, req.Host) || u.EscapedPath() != req.URL.EscapedPath() {
		return "", badU
	}
	if m := ev.Tags.Find("method"); m == nil || !strings.EqualFold(m[1], req.Method) {
		return "", "the Authorization event's method tag must be " + req.Method
	}
	return ev.PubKey, ""
}

// mintLiveKitJWT issues an HS256 LiveKit access token for pubkey in the
// group's room.
func (r *Relay) mintLiveKitJWT(pubkey, group string) (string, error) {
	var nonce [8]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return "", err
	}
	now := r.now()
	claims := map[string]any{
		"iss":   "nipcl-reference",
		"sub":   pubkey + "-" + hex.EncodeToString(nonce[:]),
		"nbf":   now.Unix(),
		"exp":   now.Add(time.Hour).Unix(),
		"video": map[string]any{"room": group, "roomJoin": true},
	}
	r.editedClaims(claims)
	header, _ := json.Marshal(map[string]string{"alg": "HS256", "typ": "JWT"})
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	signing := enc.EncodeToString(header) + "." + enc.EncodeToString(payload)
	mac := hmac.New(sha256.New, []byte("nipcl-livekit:"+r.secretKey))
	mac.Write([]byte(signing))
	return signing + "." + enc.EncodeToString(mac.Sum(nil)), nil
}

// kindGroupParticipants is NIP-29's 39004: the participants of a group's
// live AV room, relay-signed.
const kindGroupParticipants = 39004

// publishParticipants (re)publishes the group's 39004 with pubkey among its
// participant tags (NIP-29: "zero or more participant tags with the
// participant's public key as lowercase hex").
func (r *Relay) publishParticipants(t *txn, group, pubkey string) error {
	if r.stateOmitted(kindGroupParticipants) {
		return nil
	}
	prev, err := t.currentState(kindGroupParticipants, group)
	if err != nil {
		return err
	}
	tags := nostr.Tags{{"d", group}}
	listed := false
	if prev != nil {
		for _, tag := range prev.Tags {
			if len(tag) >= 2 && tag[0] == "participant" {
				tags = append(tags, nostr.Tag{"participant", tag[1]})
				listed = listed || strings.EqualFold(tag[1], pubkey)
			}
		}
	}
	if !listed {
		tags = append(tags, nostr.Tag{"participant", pubkey})
	}
	tags = r.editedStateTags(kindGroupParticipants, &Channel{UUID: group}, tags)
	ts := nostr.Timestamp(r.now().Unix())
	if prev != nil && ts <= prev.CreatedAt {
		ts = prev.CreatedAt + 1
	}
	ev := &nostr.Event{Kind: kindGroupParticipants, CreatedAt: ts, Tags: tags, Content: ""}
	if err := r.signer.sign(ev, r.stateKey()); err != nil {
		return fmt.Errorf("sign 39004: %w", err)
	}
	if err := t.deleteWhere(condStateOfKind, kindGroupParticipants, group); err != nil {
		return err
	}
	return t.insert(ev, group)
}
