import { type Asset, WATERMARK_PREPARING } from "@hangar/contract";
import { Alert, Box, Center, Image, Loader, Progress, Stack, Text } from "@mantine/core";
import { errorMessage } from "../../../lib/api-client";
import { useWatermarkedVideo } from "../../shares";
import { VideoPlayer } from "./video-player";

/**
 * A watermarking link's video (issue 33): the watermarked poster with "Preparing the watermarked
 * video…" and its progress until the burned-in copy is made, then that copy in the player. The plain
 * video is never loaded (the server would refuse it anyway).
 */
export function WatermarkedVideo(props: { token: string; asset: Asset; viewKey: string; keys: boolean }) {
  const { asset } = props;
  const state = useWatermarkedVideo(props.token, asset.id, true);
  const ready = state.data?.state === "ready" ? state.data.video_url : null;
  if (ready)
    return (
      <VideoPlayer
        key={props.viewKey}
        src={ready}
        poster={asset.thumbnail_url}
        duration={asset.duration}
        fps={asset.fps}
        sprite={null}
        keys={props.keys}
      />
    );
  const failed = state.isError || state.data?.state === "failed";
  return (
    <Box pos="relative" h="100%" data-testid="watermarked-video-preparing">
      {asset.thumbnail_url && (
        <Image src={asset.thumbnail_url} alt="" h="100%" fit="contain" style={{ filter: "brightness(0.55)" }} />
      )}
      <Center pos="absolute" inset={0} p="md">
        {failed ? (
          <Alert color="red" variant="filled" title="The watermarked video could not be made" maw={360}>
            {state.isError ? errorMessage(state.error, "Try again later.") : (state.data?.error ?? "Try again later.")}
          </Alert>
        ) : (
          <Stack align="center" gap="xs" w="min(320px, 80%)" role="status" aria-live="polite">
            <Loader color="gray.0" size="sm" />
            <Text c="white" fw={600} ta="center">
              {WATERMARK_PREPARING}
            </Text>
            <Progress value={state.data?.progress ?? 0} w="100%" aria-label="Watermarked video progress" animated />
            <Text c="gray.3" size="xs">
              {state.data?.progress ?? 0} %
            </Text>
          </Stack>
        )}
      </Center>
    </Box>
  );
}
