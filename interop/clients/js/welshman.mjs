// nipcl-conform client-mode adapter (protocol 3) for the welshman stack
// 0.8.15 (@welshman/util, net, signer, lib: what flotilla builds on). The
// library decides: @welshman/util's Room helpers make the NIP-29 commands
// and read the 39000 (readRoomMeta), @welshman/net's publishOne and
// request talk to the relay through its socket policies (an AUTH policy
// signs challenges with @welshman/signer, as flotilla sets up), and its
// Repository keeps what was read. The adapter only translates; where it
// decides, a comment says so.
import { serve, okRefusal, wait, lazy } from './loop.mjs'

// The library is loaded by the first intent that needs it (loop.mjs lazy).
let makeEvent, readRoomMeta, makeRoomCreateEvent, makeRoomJoinEvent, makeRoomLeaveEvent, makeRoomRemoveMemberEvent
let netContext, publishOne, request, PublishStatus
let signer, secret
const library = lazy(async () => {
  const [sig, util, net] = await Promise.all([import('@welshman/signer'), import('@welshman/util'), import('@welshman/net')])
  ;({ makeEvent, readRoomMeta, makeRoomCreateEvent, makeRoomJoinEvent, makeRoomLeaveEvent, makeRoomRemoveMemberEvent } = util)
  ;({ netContext, publishOne, request, PublishStatus } = net)
  signer = sig.Nip01Signer.fromSecret(secret)
  // One pool for the case, whose sockets authenticate whenever a relay
  // sends a challenge (makeSocketPolicyAuth), as flotilla configures
  // welshman.
  netContext.pool = new net.Pool({
    makeSocket: url => new net.Socket(url, [...net.defaultSocketPolicies, net.makeSocketPolicyAuth({ sign: e => signer.sign(e) })]),
  })
})

// Commands: the Room helpers where welshman has one; a chat message and
// the NIP-CL label commands are plain makeEvent calls (welshman has no
// helper for them).
const templates = {
  'create-group': i => makeRoomCreateEvent({ h: i.group }),
  join: i => makeRoomJoinEvent({ h: i.group }), // no invite code: makeRoomJoinEvent takes none
  leave: i => makeRoomLeaveEvent({ h: i.group }),
  'remove-user': i => makeRoomRemoveMemberEvent({ h: i.group }, i.user),
  post: i => makeEvent(9, { content: i.content ?? '', tags: [['h', i.group]] }),
  'add-label': i => makeEvent(9002, { tags: [['h', i.channel], ['add-label', i.label]] }),
  create: i => makeEvent(9007, { tags: [['h', i.channel], ['label', i.label]] }),
}

// publishOne resolves with Success on an OK true, Failure on an OK false,
// Timeout when no OK came in time (publishOne's timeout option: the
// harness's wait, loop.mjs).
async function publish(i) {
  const event = await signer.sign(templates[i.op](i))
  const r = await publishOne({ event, relay: i.relay, timeout: wait })
  const outcome = r.status === PublishStatus.Success ? 'committed'
    : r.status === PublishStatus.Failure && okRefusal(r.detail) ? 'rejected' : 'unknown'
  return { outcome, evidence: { status: r.status, detail: r.detail } }
}

// welshman reads the 39000 (readRoomMeta) and nothing else of a group's
// state: it has no reader for 39001, 39002, 39003 or 39005, nor parent or
// child tags.
const unread = { admins: 'unsupported', 'admin-roles': 'unsupported', members: 'unsupported', roles: 'unsupported',
  pins: 'unsupported', parent: 'unsupported', children: 'unsupported' }

async function readGroup(i) {
  const evs = await request({ relays: [i.relay], filters: [{ kinds: [39000], '#d': [i.group] }], autoClose: true })
  // The adapter stores what request returned in welshman's Repository
  // (which replaces an addressable event by a newer one of the same
  // address) and shows the first 39000 its query gives for the d tag
  // (newest first), as an app showing the room from the repository would.
  for (const e of evs) netContext.repository.publish(e)
  const [ev] = netContext.repository.query([{ kinds: [39000], '#d': [i.group] }])
  if (!ev) return { evidence: 'the repository holds no 39000 for the group' }
  const m = readRoomMeta(ev)
  const group = { name: m.name, private: !!m.isPrivate, restricted: !!m.isRestricted, hidden: !!m.isHidden, closed: !!m.isClosed }
  return { known: true, group, fields: { ...unread }, evidence: { signer: ev.pubkey } }
}

// readMessages shows the group's kind 9 messages as request returns them:
// welshman has no check of previous references.
async function readMessages(i) {
  const evs = await request({ relays: [i.relay], filters: [{ kinds: [9], '#h': [i.group] }], autoClose: true })
  return { messages: evs.map(e => e.id), evidence: 'welshman 0.8.15 has no previous-reference check: every message is shown' }
}

serve(async i => {
  switch (i.op) {
    case 'init':
      secret = i.secret
      return { protocol: 3, evidence: '@welshman/util, net, signer, lib 0.8.15' }
    case 'create-group': case 'join': case 'leave': case 'post': case 'remove-user': case 'add-label': case 'create':
      await library()
      return publish(i)
    case 'read-group':
      await library()
      return readGroup(i)
    case 'read-messages':
      await library()
      return readMessages(i)
    default: // am-member, read-labels, find, ensure, read-channel, locate-group
      return { unsupported: `welshman 0.8.15 has no API for ${i.op}` }
  }
})
