// nipcl-conform client-mode adapter (protocol 3) for nostr-tools 2.25.2
// (nip29). The library decides: nip29's fetch*/parse* functions choose
// and read the group's state events; Relay.publish sends commands. The
// adapter only translates intents and answers (see loop.mjs for how it
// reads a library error); where it decides, a comment says so.
import { serve, outcomeOf, wait, lazy } from './loop.mjs'

// The library is loaded by the first intent that needs it (loop.mjs lazy).
let finalizeEvent, Relay, nip29, pool, sk, pk, secret
const library = lazy(async () => {
  const [pure, relay, poolMod, n29, utils] = await Promise.all([
    import('nostr-tools/pure'), import('nostr-tools/relay'), import('nostr-tools/pool'), import('nostr-tools/nip29'),
    import('@noble/hashes/utils.js'),
  ])
  finalizeEvent = pure.finalizeEvent
  Relay = relay.Relay
  nip29 = n29
  pool = new poolMod.SimplePool()
  sk = utils.hexToBytes(secret)
  pk = pure.getPublicKey(sk)
})
const now = () => Math.floor(Date.now() / 1000)

const templates = {
  'create-group': i => nip29.generateCreateGroupEventTemplate(i.group),
  join: i => nip29.generateGroupJoinRequestEventTemplate(i.group, i.code),
  leave: i => nip29.generateGroupLeaveRequestEventTemplate(i.group),
  'remove-user': i => nip29.generateRemoveUserEventTemplate(i.group, i.user),
  // nostr-tools has no chat-message or NIP-CL label templates: the adapter
  // writes kind 9 with h (no previous), kind 9002 with add-label, kind 9007
  // with label, as an app on nostr-tools would.
  post: i => ({ kind: 9, created_at: now(), tags: [['h', i.group]], content: i.content }),
  'add-label': i => ({ kind: 9002, created_at: now(), tags: [['h', i.channel], ['add-label', i.label]], content: '' }),
  create: i => ({ kind: 9007, created_at: now(), tags: [['h', i.channel], ['label', i.label]], content: '' }),
}

// publish sends the event once with Relay.publish, which resolves on the
// first OK true and rejects on an OK false, a closed connection or its
// own timeout (Relay.publishTimeout, 4.4 s by default: set to the
// harness's wait, loop.mjs).
async function publish(i) {
  const ev = finalizeEvent(templates[i.op](i), sk)
  let relay
  try {
    relay = await Relay.connect(i.relay)
    relay.publishTimeout = wait
  } catch (e) {
    return { outcome: 'unknown', evidence: `Relay.connect: ${e?.message ?? e}` }
  }
  try {
    const reason = await relay.publish(ev)
    return { outcome: 'committed', evidence: `Relay.publish resolved: ${JSON.stringify(reason)}` }
  } catch (e) {
    return outcomeOf(e)
  } finally {
    relay.close()
  }
}

// read runs one fetch-and-parse of the library: its value, or the error
// it threw (a missing event or an event it refuses to parse).
const read = p => p.then(value => ({ value }), e => ({ error: String(e?.message ?? e) }))

async function readGroup(i) {
  const args = { pool, groupReference: { id: i.group, host: i.relay } }
  const meta = await read(nip29.fetchGroupMetadataEvent(args).then(nip29.parseGroupMetadataEvent))
  if (meta.error) return { evidence: meta.error } // known false: the library has no group
  const [admins, members, roles, pins] = await Promise.all([
    read(nip29.fetchGroupAdminsEvent(args).then(nip29.parseGroupAdminsEvent)),
    read(nip29.fetchGroupMembersEvent(args).then(nip29.parseGroupMembersEvent)),
    read(nip29.fetchGroupRolesEvent(args).then(nip29.parseGroupRolesEvent)),
    read(nip29.fetchGroupPinnedEventsEvent(args).then(nip29.parseGroupPinnedEventsEvent)),
  ])
  const m = meta.value
  const group = {
    name: m.name, private: !!m.isPrivate, restricted: !!m.isRestricted, hidden: !!m.isHidden,
    closed: !!m.isClosed, parent: m.parent, children: m.children,
    // GroupAdmin keeps the first role as label and the rest as permissions.
    admins: admins.value?.map(a => ({ pubkey: a.pubkey, roles: [a.label, ...a.permissions].filter(Boolean) })),
    members: members.value?.map(x => x.pubkey), roles: roles.value?.map(r => r.name),
    pins: pins.value?.map(p => p.id ?? p.address ?? p),
  }
  // A fetch or parse that threw leaves the field without a value: unknown.
  const fields = {}
  const errors = { signer: m.pubkey }
  for (const [name, r, also] of [['admins', admins, 'admin-roles'], ['members', members], ['roles', roles], ['pins', pins]]) {
    if (r.error) {
      fields[name] = 'unknown'
      if (also) fields[also] = 'unknown'
      errors[name] = r.error
    }
  }
  return { known: true, group, fields, evidence: errors }
}

// amMember answers from the library's member list (parseGroupMembersEvent
// of the 39002): nostr-tools has no other notion of membership and never
// reads kinds 9000/9001. Without a 39002 it does not know.
async function amMember(i) {
  const args = { pool, groupReference: { id: i.group, host: i.relay } }
  const members = await read(nip29.fetchGroupMembersEvent(args).then(nip29.parseGroupMembersEvent))
  if (members.error) return { evidence: members.error }
  return { known: true, member: members.value.some(x => x.pubkey === pk), evidence: `${members.value.length} member(s) in the 39002` }
}

// readMessages shows the group's kind 9 messages as SimplePool.querySync
// returns them: nostr-tools has no check of previous references, so none
// is flagged.
async function readMessages(i) {
  const evs = await pool.querySync([i.relay], { kinds: [9], '#h': [i.group] })
  return { messages: evs.map(e => e.id), evidence: 'nostr-tools 2.25.2 has no previous-reference check: every message is shown' }
}

serve(async i => {
  switch (i.op) {
    case 'init':
      secret = i.secret
      return { protocol: 3, evidence: 'nostr-tools 2.25.2 (nip29)' }
    case 'create-group': case 'join': case 'leave': case 'post': case 'remove-user': case 'add-label': case 'create':
      await library()
      return publish(i)
    case 'read-group':
      await library()
      return readGroup(i)
    case 'am-member':
      await library()
      return amMember(i)
    case 'read-messages':
      await library()
      return readMessages(i)
    default: // read-labels, find, ensure, read-channel, locate-group
      return { unsupported: `nostr-tools 2.25.2 has no API for ${i.op}` }
  }
})
