/** A `--store` value that names a PostgreSQL database. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value.trim());
}

/** The URL as it may be shown: the password never appears in a message or a log line. */
export function redactStoreUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return value.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  }
}

/** One sentence for a URL that cannot name a database, or undefined when it can. */
export function storeUrlProblem(value: string): string | undefined {
  if (!isPostgresUrl(value)) {
    return `--store takes a postgres://user@host:port/database URL (got "${redactStoreUrl(value)}"); leave it out to keep sessions in the agent folder`;
  }
  try {
    const url = new URL(value);
    if (url.pathname.replace(/^\//, '') === '' && !url.searchParams.has('host')) {
      return `--store ${redactStoreUrl(value)} names no database; add one, as in postgres://auggy@db.internal:5432/auggy`;
    }
  } catch {
    return `--store ${redactStoreUrl(value)} is not a URL; write it as postgres://user@host:port/database`;
  }
  return undefined;
}
