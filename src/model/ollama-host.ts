/**
 * The server address in OLLAMA_HOST, read the way Ollama itself reads it: quotes and spaces
 * trimmed, `http` when no scheme is given, port 11434 when none is given (80 or 443 when a
 * scheme is), 127.0.0.1 when only a port is. So `127.0.0.1:11434`, `0.0.0.0` and `:11434`
 * all work, as they do for the `ollama` command.
 */
export function ollamaHostURL(value: string | undefined): string {
  const raw = (value ?? '')
    .trim()
    .replace(/^["']+|["']+$/g, '')
    .trim();
  const schemeAt = raw.indexOf('://');
  const scheme = schemeAt < 0 ? 'http' : raw.slice(0, schemeAt);
  const defaultPort = schemeAt < 0 ? '11434' : scheme === 'https' ? '443' : '80';
  const hostPort = (schemeAt < 0 ? raw : raw.slice(schemeAt + 3)).replace(/\/+$/, '');
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(hostPort);
  const plain = /^([^:]*)(?::(\d*))?$/.exec(hostPort);
  let host = bracketed ? `[${bracketed[1]}]` : plain ? plain[1] : hostPort.includes(':') ? `[${hostPort}]` : hostPort;
  const port = (bracketed ? bracketed[2] : plain ? plain[2] : undefined) || defaultPort;
  if (host === '' || host === '[]') host = '127.0.0.1';
  return `${scheme}://${host}:${port}`;
}
