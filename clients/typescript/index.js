// The Courier API client: openapi-fetch typed by schema.d.ts (generated from
// docs/openapi.json by `make clients`). Types in index.d.ts.
import createClient from "openapi-fetch";

/**
 * @param {import("./index.js").CourierClientOptions} options
 * @returns {import("./index.js").CourierClient}
 */
export function createCourierClient({ baseUrl, apiKey, headers, ...rest }) {
  return createClient({
    ...rest,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    headers: { ...headers, Authorization: `Bearer ${apiKey}` },
  });
}
