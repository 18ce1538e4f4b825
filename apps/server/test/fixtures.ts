/** Test fixtures built in code (nothing binary is checked in). */

/** A PDF from object bodies (object n is bodies[n-1]), with a correct xref table. */
export function buildPdf(bodies: string[], trailerExtra = ""): Buffer {
  let out = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
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

export const pdfStream = (content: string, dict = "") =>
  `<< ${dict} /Length ${content.length} >>\nstream\n${content}\nendstream`;

/** `count` pages of `width`×`height` points, each saying "Page N" in Helvetica. */
export function textPdf(count: number, width = 612, height = 792): Buffer {
  const bodies = ["<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"];
  const kids: string[] = [];
  for (let i = 0; i < count; i++) {
    bodies.push(pdfStream(`BT /F1 48 Tf 72 ${height - 120} Td (Page ${i + 1}) Tj ET 0 0 1 rg 72 72 200 100 re f`));
    bodies.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${bodies.length} 0 R >>`,
    );
    kids.push(`${bodies.length} 0 R`);
  }
  bodies[1] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${count} >>`;
  return buildPdf(bodies);
}
