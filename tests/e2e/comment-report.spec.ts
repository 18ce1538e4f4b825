import { readFileSync } from "node:fs";
import { PDFiumLibrary } from "@hyzyla/pdfium";
import { expect, test } from "@playwright/test";
import { jpeg, newOwner, uploadAsset } from "./assets-support.ts";
import { api } from "./support.ts";

/**
 * Issue 35: the PDF comment report downloaded from the viewer has its content on page 1 and prints
 * "—", "é", "ß" and "Ж" as typed; CJK and emoji print as a visible box (the font lacks them), never "?".
 */
test("the PDF report from the viewer starts on page 1 and prints what people typed", async ({ browser }) => {
  test.setTimeout(120_000);
  const { context, page, workspaceId } = await newOwner(browser, "Report studio");
  const id = await uploadAsset(page, workspaceId, "Café poster.jpg", await jpeg(3));
  const text = "Logo — too small; café, Straße, Жёлтый. 漢字 👍 done";
  await api(page, "POST", `/workspaces/${workspaceId}/comments`, { content_type: "asset", object_id: id, text });

  await page.goto(`/w/${workspaceId}/a/${id}`);
  await expect(page.getByTestId("comments-panel")).toContainText("Straße");
  await page.getByRole("button", { name: "Export comments" }).click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("menuitem", { name: "Export PDF report" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const bytes = readFileSync(await download.path());

  const pdfium = await PDFiumLibrary.init();
  try {
    const doc = await pdfium.loadDocument(bytes);
    const first = doc.getPage(0).getText().replace(/\s+/g, " ");
    doc.destroy();
    expect(first).toContain("Café poster.jpg");
    for (const s of ["Logo — too small", "café", "Straße", "Жёлтый"]) expect(first).toContain(s);
    expect(first).toContain("□□ □ done");
    expect(first).not.toContain("?");
  } finally {
    pdfium.destroy();
  }
  await context.close();
});
