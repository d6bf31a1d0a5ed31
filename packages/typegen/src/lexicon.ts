import { terms } from "./tokenize.ts";

/**
 * Groups of words that ask for the same thing in API vocabulary: verbs of intent (create/open/add/
 * new/make), resources and their common names, and everyday phrasings of API operations. A query
 * word from a group also looks for the group's other words, at a lower weight. Phrases are matched
 * on consecutive query words. This is general knowledge of how people name API operations, not a
 * list tuned to one catalog.
 */
const GROUPS: readonly string[] = [
  // verbs: what to do
  "create, add, new, make, open, post, insert, start, register, submit, generate, build, compose, draft, file, raise, establish, set up, spin up, initiate, provision, issue",
  "get, fetch, retrieve, read, show, view, see, look up, lookup, display, detail, details, info, information, inspect, check, describe, load, open, obtain, about",
  "list, all, every, enumerate, browse, index, overview, show all, which, many, collection",
  "search, find, query, lookup, look for, look up, filter, match, locate, discover, grep, seek",
  "update, edit, modify, change, patch, set, alter, adjust, amend, revise, rename, replace, put, configure, tweak, fix, correct, rewrite",
  "delete, remove, destroy, erase, drop, discard, trash, purge, clear, unlink, wipe, get rid, take down, eliminate",
  "cancel, void, abort, revoke, stop, terminate, halt, kill, withdraw, call off, rescind, invalidate, expire",
  "close, resolve, finish, complete, done, end, shut, mark done, wrap up",
  "reopen, restore, undo, revert, recover, bring back, roll back, rollback, undelete",
  "archive, hide, shelve, retire, deactivate, disable, suspend, pause, freeze, mute",
  "enable, activate, turn on, unarchive, resume, unpause, unfreeze, unmute",
  "send, deliver, email, notify, message, dispatch, forward, post, ping, mail, transmit",
  "upload, attach, put, push, import, store, save, write",
  "download, export, pull, save, backup, dump, archive",
  "copy, duplicate, clone, fork, replicate, mirror",
  "move, rename, relocate, transfer, migrate, shift",
  "merge, combine, integrate, squash, land, join",
  "approve, accept, confirm, authorize, allow, grant, sign off, greenlight, ok",
  "reject, decline, deny, refuse, dismiss, disapprove, block",
  "assign, allocate, delegate, give, hand, appoint",
  "invite, add member, onboard, welcome",
  "follow, subscribe, watch, track, star, favorite, bookmark, like, save",
  "unfollow, unsubscribe, unwatch, unstar, unfavorite, dislike",
  "count, total, number, how many, tally, stat, statistic, statistics, metric, metrics, summary, report, usage, analytics, insight",
  "verify, validate, test, check, confirm, ensure, lint",
  "retry, rerun, re run, repeat, redo, replay, restart, resend",
  "schedule, plan, book, reserve, queue, calendar",
  "run, execute, trigger, invoke, launch, start, kick off, dispatch, call, fire",
  "compare, diff, difference, changes, delta, versus",
  "lock, protect, secure, restrict, freeze",
  "unlock, unprotect, unrestrict, unblock",
  "sum, add, plus, total, addition, calculate, compute",
  "echo, repeat, say back, mirror, return",
  "print, log, output, write, emit",
  // money
  "refund, reimburse, reimbursement, money back, pay back, give back, return money, chargeback, reverse, credit back",
  "charge, payment, pay, paid, debit, bill, billing, transaction, purchase, spend, cost, collect, capture",
  "payout, transfer, withdraw, withdrawal, disburse, settlement, deposit, wire",
  "invoice, bill, receipt, statement, billing",
  "subscription, plan, recurring, membership, renewal, renew, monthly, annual, tier",
  "price, pricing, cost, amount, rate, fee, tariff, quote",
  "product, item, goods, merchandise, sku, offering, catalog",
  "discount, coupon, promo, promotion, voucher, deal, code, rebate",
  "customer, client, buyer, shopper, purchaser, payer, consumer, patron",
  "card, credit card, debit card, payment method, wallet, source",
  "balance, funds, money, available, account balance",
  "dispute, chargeback, contest, complaint, fraud",
  "tax, vat, gst, duty",
  "pending, upcoming, scheduled, awaiting, outstanding, incomplete, uncaptured, open, unpaid, draft, in progress, queued, not yet",
  "twice, duplicate, double, again, repeated",
  "currency, money, dollar, euro, exchange",
  "checkout, cart, basket, order, session, purchase",
  "order, purchase, sale, booking, transaction",
  "shipping, delivery, shipment, ship, parcel, fulfillment, tracking",
  // people and places
  "user, account, profile, member, person, people, individual, login, identity, me, someone, who",
  "organization, org, company, business, enterprise, team, group, workspace, tenant",
  "team, group, squad, department, crew",
  "member, membership, collaborator, contributor, participant, maintainer, teammate, colleague",
  "follower, fan, subscriber, watcher, stargazer",
  "email, mail, address, inbox, e-mail",
  "password, credential, credentials, secret, token, key, api key, passphrase, auth",
  "permission, access, role, right, privilege, scope, policy, acl",
  "login, sign in, signin, log in, authenticate, auth, session",
  "logout, sign out, signout, log out",
  "signup, sign up, register, registration, enroll, join",
  // code hosting
  "repository, repo, project, codebase, source, package",
  "pull request, pull, pr, merge request, change request, review request, patch",
  "issue, ticket, bug, problem, task, defect, incident, story, todo",
  "comment, reply, note, remark, feedback, annotation, discussion, response",
  "review, feedback, critique, approval, code review",
  "commit, change, revision, changeset, snapshot, version, sha",
  "branch, ref, head, fork, line",
  "tag, release, version, label, milestone",
  "release, version, publish, ship, deploy, launch, tag",
  "label, tag, category, topic, badge, classification",
  "milestone, goal, deadline, target, sprint",
  "workflow, action, pipeline, ci, job, build, automation, run",
  "artifact, build output, binary, asset, package",
  "deployment, deploy, environment, rollout, release",
  "webhook, hook, callback, event subscription, notification endpoint",
  "gist, snippet, paste, code sample",
  "secret, token, key, credential, password",
  "key, ssh key, gpg key, public key, deploy key, signing key",
  "contents, content, file, source, text, body",
  "readme, documentation, docs, guide",
  "license, licence, copyright, terms",
  "star, stargazer, like, favorite",
  "watch, subscribe, subscription, notification",
  "notification, alert, notice, inbox, update, ping, reminder",
  "code scanning, security, vulnerability, alert, cve, advisory, dependabot",
  "codespace, dev environment, workspace, container",
  "project board, board, kanban, column, card",
  "check run, check, status, ci result, test result",
  "traffic, views, clones, visits, popularity",
  "language, languages, tech stack, programming language",
  "contributor, author, committer, maintainer",
  "template, boilerplate, scaffold, starter",
  "emoji, reaction, react, thumbs up",
  // files and data
  "file, document, doc, attachment, blob, path, upload",
  "directory, folder, dir, tree, path, location",
  "tree, hierarchy, structure, recursive, nested, outline",
  "metadata, info, information, stat, stats, attribute, attributes, properties, size, modified, permissions",
  "size, length, bytes, big, large",
  "image, picture, photo, icon, png, jpeg, graphic",
  "database, table, record, row, entry, db",
  "record, entry, item, row, document, object",
  "graph, network, knowledge graph, knowledge, memory",
  "entity, node, object, thing, concept, item",
  "relation, relationship, edge, link, connection, association",
  "observation, fact, note, detail, attribute, memory",
  "resource, resources, asset, object",
  "prompt, template, instruction",
  "text, string, message, content, words",
  "environment, env, variable, config, configuration, setting, settings",
  "setting, settings, preference, preferences, option, options, config, configuration",
  "event, activity, history, log, audit, timeline, feed, record",
  "log, logs, output, trace, console",
  "error, failure, failed, exception, problem, crash",
  "status, state, health, progress, condition",
  "time, date, timestamp, when, clock, now",
  "long running, long, slow, progress, background",
  "sample, sampling, llm, model, completion, generate, ai",
  "schema, type, definition, structure, spec, specification",
  "link, url, address, uri, href",
  "domain, host, hostname, dns, website, site",
  "message, chat, conversation, thread, dm, post, text",
  "channel, room, conversation, space",
  "calendar, event, meeting, appointment, schedule",
  "contact, person, address book, people",
  "report, summary, overview, dashboard",
  "export, download, csv, dump",
  "limit, quota, rate limit, cap, threshold",
  "recent, latest, newest, last, current",
  "old, oldest, previous, past, former, stale, expired",
  "public, visible, open, published",
  "private, hidden, internal, secret, confidential",
  "connected, installed, installation, integration, app, application",
  "app, application, integration, client, oauth app, bot",
];

const PHRASE_SEPARATOR = " ";

/** Stemmed word or phrase → the stemmed words and phrases it is related to. */
const RELATED: ReadonlyMap<string, readonly string[]> = (() => {
  const related = new Map<string, Set<string>>();
  for (const group of GROUPS) {
    const members = [
      ...new Set(
        group
          .split(",")
          .map((member) => terms(member).join(PHRASE_SEPARATOR))
          .filter(Boolean),
      ),
    ];
    for (const member of members) {
      const set = related.get(member) ?? new Set<string>();
      related.set(member, set);
      for (const other of members) if (other !== member) set.add(other);
    }
  }
  return new Map([...related].map(([member, set]) => [member, [...set]]));
})();

/** The longest phrase the lexicon knows, in words. */
const MAX_PHRASE = Math.max(
  ...[...RELATED.keys()].map((key) => key.split(PHRASE_SEPARATOR).length),
);

/** Related words found for a word or phrase of the query. */
export interface Expansion {
  /** positions of the query terms the matched word or phrase covers */
  from: number[];
  /** the related word or phrase, as stemmed words */
  words: string[];
}

/**
 * Expands stemmed query terms with related terms: every word and every phrase of consecutive words
 * ("money back") that the lexicon knows brings in the other members of its groups.
 */
export function relatedTerms(queryTerms: readonly string[]): Expansion[] {
  const expansions: Expansion[] = [];
  for (let size = Math.min(MAX_PHRASE, queryTerms.length); size >= 1; size--) {
    for (let start = 0; start + size <= queryTerms.length; start++) {
      const related = RELATED.get(queryTerms.slice(start, start + size).join(PHRASE_SEPARATOR));
      if (!related) continue;
      const from = Array.from({ length: size }, (_, offset) => start + offset);
      for (const other of related) expansions.push({ from, words: other.split(PHRASE_SEPARATOR) });
    }
  }
  return expansions;
}
