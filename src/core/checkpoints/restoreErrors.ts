/** The errors a restore can meet, each saying what was (not) done and what the user can do. */

export class RestoreIntegrityError extends Error {
  constructor(path: string) {
    super(`The checkpoint's copy of ${path} is damaged (its hash does not match). Nothing was written to ${path}.`);
    this.name = 'RestoreIntegrityError';
  }
}

/** The file's current version could not be kept before a restore would write over it: the restore leaves it. */
export class CannotKeepError extends Error {
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`Cairn could not keep the current version of ${path} (${why}).`);
    this.name = 'CannotKeepError';
  }
}

/** A folder on a path a restore would write is a link: a restore never writes through one. */
export class LinkOnPathError extends Error {
  constructor(
    readonly path: string,
    readonly link: string,
  ) {
    super(
      `${link} is a symbolic link now, and a restore never writes through a link, so ${path} was not written. ` +
        `Replace the link with a folder (or restore ${path} by hand from its diff), then restore again.`,
    );
    this.name = 'LinkOnPathError';
  }
}

/** A checkpoint path that cannot name a file inside the workspace (damaged record): never used. */
export class CheckpointPathError extends Error {
  constructor(readonly path: string) {
    super(`The checkpoint names ${JSON.stringify(path)}, which is not a path inside the workspace; it was not used.`);
    this.name = 'CheckpointPathError';
  }
}
