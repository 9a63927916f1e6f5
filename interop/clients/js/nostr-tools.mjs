// nipcl-conform client-mode adapter for nostr-tools 2.25.2 (nip29). The
// library decides: nip29's fetch*/parse* functions choose and read the
// group's state events; Relay.publish sends commands. The adapter only
// translates intents and answers (see loop.mjs for its one decision).
import { finalizeEvent } from 'nostr-tools/pure'
import { Relay } from 'nostr-tools/relay'
import { SimplePool } from 'nostr-tools/pool'
import * as nip29 from 'nostr-tools/nip29'
import { hexToBytes } from '@noble/hashes/utils.js'
import { serve, okRefusal } from './loop.mjs'

let sk
const pool = new SimplePool()

const templates = {
  'create-group': i => nip29.generateCreateGroupEventTemplate(i.group),
  join: i => nip29.generateGroupJoinRequestEventTemplate(i.group, i.code),
  leave: i => nip29.generateGroupLeaveRequestEventTemplate(i.group),
  // nostr-tools has no chat-message template: the adapter writes kind 9 with h, no previous.
  post: i => ({ kind: 9, created_at: Math.floor(Date.now() / 1000), tags: [['h', i.group]], content: i.content }),
}

async function publish(i) {
  const ev = finalizeEvent(templates[i.op](i), sk)
  const relay = await Relay.connect(i.relay)
  try {
    await relay.publish(ev)
    return { outcome: 'committed' }
  } catch (e) {
    return { outcome: okRefusal(e?.message) ? 'rejected' : 'unknown', evidence: String(e?.message || e) }
  } finally {
    relay.close()
  }
}

// optional: a state event the relay does not have is no group property.
const optional = p => p.catch(() => null)

async function readGroup(i) {
  const groupReference = { id: i.group, host: i.relay }
  const args = { pool, groupReference }
  let meta
  try {
    meta = nip29.parseGroupMetadataEvent(await nip29.fetchGroupMetadataEvent(args))
  } catch (e) {
    return { evidence: String(e?.message || e) } // known false: the library found no group
  }
  const admins = await optional(nip29.fetchGroupAdminsEvent(args).then(nip29.parseGroupAdminsEvent))
  const members = await optional(nip29.fetchGroupMembersEvent(args).then(nip29.parseGroupMembersEvent))
  const roles = await optional(nip29.fetchGroupRolesEvent(args).then(nip29.parseGroupRolesEvent))
  const group = {
    name: meta.name, private: !!meta.isPrivate, restricted: !!meta.isRestricted, hidden: !!meta.isHidden,
    closed: !!meta.isClosed, parent: meta.parent, children: meta.children,
    admins: admins?.map(a => ({ pubkey: a.pubkey, roles: [a.label, ...a.permissions].filter(Boolean) })),
    members: members?.map(m => m.pubkey), roles: roles?.map(r => r.name),
  }
  return { known: true, group, evidence: { signer: meta.pubkey } }
}

serve(async i => {
  switch (i.op) {
    case 'init':
      sk = hexToBytes(i.secret)
      return { protocol: 2, evidence: 'nostr-tools 2.25.2 (nip29)' }
    case 'create-group': case 'join': case 'leave': case 'post':
      return publish(i)
    case 'read-group':
      return readGroup(i)
    default:
      return { unsupported: `nostr-tools 2.25.2 has no API for ${i.op}` }
  }
})
