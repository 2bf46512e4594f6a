import type { Client } from '../client.js';

/** Base of every resource: holds the client whose transport and options it uses. */
export abstract class APIResource {
  protected readonly client: Client;

  constructor(client: Client) {
    this.client = client;
  }
}
