/** Exit 1: the request was understood but cannot be done; nothing was written. */
export class UserError extends Error {}
/** Exit 2: the command line itself is wrong. */
export class UsageError extends Error {}
