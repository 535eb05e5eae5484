/** The folder of a session kept in the agent folder; a test that needs one fails plainly without it. */
export function folderOf(session: { dir: string | undefined }): string {
  if (session.dir === undefined) throw new Error('this session has no folder (a database store)');
  return session.dir;
}
