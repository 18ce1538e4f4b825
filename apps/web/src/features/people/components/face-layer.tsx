import { useAssetFaces } from "../api";
import { useShowFaces } from "./show-faces-store";

/**
 * The faces over an image's preview ("Show faces", issue 32): a box around each face of the picture
 * with its person's name, or "Who is this?" for an unnamed face; in percent of the picture, inside
 * the zoom transform, so boxes follow zoom and pan. Nothing while the switch is off.
 */
export function FaceLayer({ workspaceId, assetId }: { workspaceId: string; assetId: string }) {
  const shown = useShowFaces();
  const faces = useAssetFaces(workspaceId, assetId, shown);
  if (!shown || !faces.data) return null;
  const onPicture = faces.data.data.filter((f) => f.frame === 0);
  return (
    <div data-testid="face-layer" style={{ position: "absolute", inset: 0, pointerEvents: "none" }} aria-hidden>
      {onPicture.map((f) => {
        const [x, y, w, h] = f.box;
        // An unnamed person's face asks too: naming it names the person.
        const label = f.person?.name ?? "Who is this?";
        return (
          <div
            key={f.id}
            data-testid="face-box"
            style={{
              position: "absolute",
              left: `${x * 100}%`,
              top: `${y * 100}%`,
              width: `${w * 100}%`,
              height: `${h * 100}%`,
              border: `2px solid ${f.person?.name ? "var(--mantine-color-brand-4)" : "rgba(255,255,255,0.85)"}`,
              borderRadius: 6,
              boxShadow: "0 0 0 1px rgba(0,0,0,0.35)",
            }}
          >
            <span
              style={{
                position: "absolute",
                left: -2,
                top: "100%",
                marginTop: 4,
                maxWidth: "12em",
                padding: "1px 6px",
                borderRadius: 4,
                fontSize: 12,
                lineHeight: "18px",
                whiteSpace: "nowrap",
                overflow: "hidden",
                textOverflow: "ellipsis",
                color: "#fff",
                background: f.person?.name ? "var(--mantine-color-brand-7)" : "rgba(0,0,0,0.6)",
              }}
            >
              {label}
            </span>
          </div>
        );
      })}
    </div>
  );
}
