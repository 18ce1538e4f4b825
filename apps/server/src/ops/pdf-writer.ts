/**
 * A PDF from object bodies (object n is bodies[n-1], the catalog first), with a correct xref
 * table: enough for the demo workspace's sample document and for test fixtures, no library needed.
 */
export function buildPdf(bodies: string[], trailerExtra = "", version = "1.4"): Buffer {
  let out = `%PDF-${version}\n%\xE2\xE3\xCF\xD3\n`;
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** A content stream object body. */
export const pdfStream = (content: string, dict = "") =>
  `<< ${dict} /Length ${content.length} >>\nstream\n${content}\nendstream`;
