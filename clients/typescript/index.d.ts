// Types of the Courier API client (index.js). `paths`, `components` and `operations`
// are generated from docs/openapi.json into schema.d.ts by `make clients`.
import type { Client, ClientOptions } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };

/** Any schema of the document by name, e.g. `Schema<"AttemptOut">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];

export interface CourierClientOptions extends Omit<ClientOptions, "baseUrl"> {
  /** Where the API is served, e.g. `http://127.0.0.1:3000` (no `/v1`: paths carry it). */
  baseUrl: string;
  /** An API key (`ck_...`), sent as `Authorization: Bearer <key>`. */
  apiKey: string;
}

/** openapi-fetch's client over the Courier API's paths: `GET`, `POST`, `PATCH`, ... */
export type CourierClient = Client<paths>;

export declare function createCourierClient(options: CourierClientOptions): CourierClient;
