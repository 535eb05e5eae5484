import { useState } from 'react';

/** Asked once per tab when the server wants a bearer token (AUGGY_TOKEN); kept for the tab's reloads. */
export function TokenGate({ error, onToken }: { error?: string; onToken(token: string): void }) {
  const [token, setToken] = useState('');
  return (
    <main className="token-gate">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (token.trim() !== '') onToken(token.trim());
        }}
      >
        <h1>auggy Console</h1>
        <p>This server asks for its access token (the AUGGY_TOKEN it was started with).</p>
        <label htmlFor="token-input">Access token</label>
        <input id="token-input" type="password" autoComplete="off" value={token} onChange={(event) => setToken(event.target.value)} />
        {error ? (
          <p className="refusal" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="primary">
          Open the Console
        </button>
      </form>
    </main>
  );
}
