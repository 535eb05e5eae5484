// Preloaded with `node --import`: says on stderr whenever a module of the MCP SDK is resolved,
// so a test can prove a command never loaded it.
import { register } from 'node:module';

const hook = `export async function resolve(specifier, context, next) {
  if (specifier.includes('@modelcontextprotocol/sdk')) process.stderr.write('mcp-sdk-loaded ' + specifier + '\\n');
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
