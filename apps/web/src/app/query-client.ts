import { QueryCache, QueryClient } from "@tanstack/react-query";
import { isApiError } from "../lib/api-client";
import { notifyError } from "../lib/notify";

declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: {
      /** Toast text when the query fails; a function may return null to stay silent. Absent: no toast. */
      errorMessage?: string | null | ((error: unknown) => string | null);
    };
  }
}

/** Client errors (4xx) will not get better by asking again; network and server errors get one more try. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  if (isApiError(error) && error.code === "INVALID_RESPONSE") return false;
  return failureCount < 1;
}

export function createQueryClient(onSessionLost: (client: QueryClient) => void): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        // A 401 on any member data query means the session ended elsewhere (expired, password changed).
        // A share link's 401 is its password prompt, not a lost session.
        if (isApiError(error) && error.status === 401 && !["auth", "shared"].includes(String(query.queryKey[0]))) {
          onSessionLost(client);
          return;
        }
        // A workspace requiring single sign-on: its page says so, with the button (features/sso).
        if (isApiError(error) && error.code === "SSO_REQUIRED") return;
        const meta = query.meta?.errorMessage;
        const message = typeof meta === "function" ? meta(error) : meta;
        if (message) notifyError(message);
      },
    }),
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  return client;
}
