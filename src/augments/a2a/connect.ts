import { type Client, ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';

/** The SDK's client for the agent at `url` (its base URL, or its card's), found through its Agent Card. */
export function connectTo(url: string, token: string | undefined): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })] });
  const factory = new ClientFactory(options);
  const card = /\/\.well-known\/agent-card\.json$/.exec(url);
  return card ? factory.createFromUrl(url.slice(0, card.index), card[0]) : factory.createFromUrl(url);
}
