/**
 * What can go wrong with a session on disk, as typed errors whose messages say what happened and what the
 * user can do. A session that cannot be read is never shown as an empty one: every reader failure ends up
 * as one of these, not as "no records".
 */

export class SessionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The session folder or its journal does not exist. */
export class SessionNotFoundError extends SessionError {
  constructor(
    readonly sessionId: string,
    readonly path: string,
  ) {
    super(`Session ${sessionId} has no journal at ${path}. It may have been deleted; start a new session.`);
  }
}

/** `create` was asked for an id that already has a folder. */
export class SessionExistsError extends SessionError {
  constructor(
    readonly sessionId: string,
    readonly path: string,
  ) {
    super(`Session ${sessionId} already exists at ${path}; open it instead of creating it, or pick another id.`);
  }
}

/** Another live process (another window) is writing this session. */
export class SessionLockedError extends SessionError {
  constructor(
    readonly sessionId: string,
    readonly lockPath: string,
    readonly holder: { readonly pid: number; readonly hostname: string } | undefined,
  ) {
    const who = holder ? `process ${holder.pid} on ${holder.hostname}` : 'another process';
    super(
      `Session ${sessionId} is open in ${who}, which is writing its journal. ` +
        `Open it read-only or start a new session; if that process is gone, delete ${lockPath}.`,
    );
  }
}

/** Where in the journal the damage is. */
export interface JournalDamage {
  /** 1-based line number; 0 when only the byte offset is known (a record read by its offset). */
  readonly line: number;
  /** Byte offset of the start of that line. */
  readonly byteOffset: number;
  readonly reason: string;
}

/**
 * The journal holds content that is neither a valid record nor a torn last line: the session is opened
 * read-only so nothing more is written over the evidence, and everything readable is still shown.
 */
export class JournalCorruptError extends SessionError {
  constructor(
    readonly sessionId: string,
    readonly path: string,
    readonly damage: JournalDamage,
    /** How many lines in all could not be read. */
    readonly badLines: number,
    advice = 'The session was opened read-only so nothing is lost; export it or start a new session',
  ) {
    const more = badLines > 1 ? ` (${badLines} unreadable lines in all)` : '';
    const where = damage.line > 0 ? `line ${damage.line} (byte ${damage.byteOffset})` : `byte ${damage.byteOffset}`;
    super(`The journal of session ${sessionId} is damaged at ${where}: ` + `${damage.reason}${more}. ${advice}. File: ${path}`);
  }
}

/** An append to a journal opened read-only, or closed. */
export class JournalReadOnlyError extends SessionError {
  constructor(
    readonly sessionId: string,
    readonly why: string,
  ) {
    super(`Session ${sessionId} cannot be written: ${why}. Start a new session to continue working.`);
  }
}

/** Writing or syncing the journal failed (disk full, read-only disk, permissions). */
export class JournalWriteError extends SessionError {
  constructor(
    readonly sessionId: string,
    readonly path: string,
    override readonly cause: unknown,
    /** What it means for the user; by default, that the last step was not saved. */
    consequence = 'The last step was not saved',
  ) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(
      `Could not write the journal of session ${sessionId} (${detail}). ` +
        `${consequence}; free disk space or check permissions on ${path}, then retry.`,
    );
  }
}

/** A record that cannot be stored as it is (not JSON-serialisable, or a result id given twice). */
export class JournalRecordError extends SessionError {}
