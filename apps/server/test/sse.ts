/**
 * Reads a Server-Sent Events response as it arrives, calling `onEvent` with each event's name and
 * parsed data (tests and bench/comments). Resolves when the stream ends or is aborted.
 */
export async function readSse(res: Response, onEvent: (event: string, data: unknown) => void): Promise<void> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += decoder.decode(value, { stream: true });
      let end = buf.indexOf("\n\n");
      while (end >= 0) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) onEvent(event, JSON.parse(data));
        end = buf.indexOf("\n\n");
      }
    }
  } catch {
    // aborted
  }
}
