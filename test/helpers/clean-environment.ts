/**
 * Every test file starts from an environment without the developer's own auggy settings: anyone
 * who uses auggy exports AUGGY_MODEL, AUGGY_BASE_URL or AUGGY_API_KEY (and a provider's key), and a
 * test that runs the binary or a conversation would otherwise talk to their model or read their
 * store. Children inherit process.env, so this reaches every auggy a test spawns. A test that
 * wants one of these sets it itself.
 */
const PROVIDER_KEYS = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY'];

for (const name of Object.keys(process.env)) {
  if (name.startsWith('AUGGY_') || PROVIDER_KEYS.includes(name)) delete process.env[name];
}
