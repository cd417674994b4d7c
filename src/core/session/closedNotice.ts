/**
 * The note a turn gets when its session closed while it ran (a window reload or close; issue 34, item 12):
 * journalled by `AgentSession`, shown by the reopened chat with Continue (`host/journalDigest.ts`), so the
 * user learns why the turn stopped and that nothing else was lost.
 */
export const SESSION_CLOSED_NOTICE = {
  kind: 'session_closed',
  message:
    'Cairn stopped here because the window was reloaded or closed while it worked; a command still running was ended. Nothing else was lost: Continue picks up where it stopped.',
} as const;
