/** The root `--help` after the command list: what a newcomer types first, and what auggy reads. */
export const ROOT_HELP_AFTER = `
Inside an agent folder, \`auggy\` alone opens the chat and \`auggy -p "message"\` runs one turn:
options given before any command are \`auggy run\`'s.

Examples:
  auggy create my-agent                         scaffold ./my-agent (asks on a terminal)
  cd my-agent && auggy                          chat with it
  auggy -p "hello"                              one turn, printed (in an agent folder)
  auggy run examples/demo -p "deploy the api"   one turn of the agent in that folder
  echo "api-west" | auggy -p --continue         the message from stdin, in the latest session
  auggy -r                                      pick a session of this folder to resume
  auggy sessions examples/demo                  list that folder's sessions
  auggy serve examples/demo --port 0            serve it over AG-UI
  auggy test examples/demo                      run its conversation scenarios (tests/)
  auggy doctor examples/demo                    check it can run here: key, model, MCP, terminal

Environment variables:
  AUGGY_MODEL       provider:model to use instead of engine in agent.yaml (as --model)
  AUGGY_BASE_URL    the provider's API base URL (as --base-url)
  AUGGY_API_KEY     an API key for the provider, instead of its own variable
  OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENROUTER_API_KEY
                    provider keys (also read from the agent folder's .env)
  OLLAMA_HOST       where ollama listens (default http://127.0.0.1:11434)
  AUGGY_TOKEN       serve: the bearer token (as --token)
  NO_COLOR          set to anything: no colour in the chat or the printed output

Exit codes:
  0    done (with --print: the turn completed)
  1    the turn failed or ran out of inference rounds; validate found errors; a test failed
  2    usage or configuration error: nothing was run
  3    with --print: the agent asked a question (input-required); answer with --session ID
  130  canceled (Ctrl+C); the session is saved
  143  with --print or test: stopped by SIGTERM (a CI job timing out); the partial reply is saved

Run \`auggy <command> --help\` for a command's options.`;
