// "Pause all jobs" / "Resume all jobs", as in the tray: the `paused` setting every runner reads.
// Shows the state now, also when the tray changed it (read again on every engine change).
import { useEffect, useState } from "preact/hooks";
import { i18n, useI18n } from "../../i18n";
import { api, messageOf, onEngineChanged } from "../../ipc";
import { Pause, Play } from "lucide";
import { Button } from "../components/Button";
import { toast } from "../toast";

export function PauseToggle() {
  useI18n();
  const [paused, setPaused] = useState<boolean | null>(null);
  useEffect(() => {
    const read = () =>
      api
        .getPaused()
        .then(setPaused)
        .catch(() => setPaused(null));
    read();
    return onEngineChanged(read);
  }, []);
  if (paused === null) return null;
  const toggle = async () => {
    try {
      const now = await api.setPaused(!paused);
      setPaused(now);
      toast(now ? i18n._("Paused: no job fires until you resume") : i18n._("Resumed: jobs fire again"));
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  return (
    <Button
      id="pause-all"
      size="sm"
      variant={paused ? "primary" : "ghost"}
      icon={paused ? Play : Pause}
      aria-pressed={paused ? "true" : "false"}
      data-paused={paused ? "true" : "false"}
      title={
        paused
          ? i18n._("Every job is paused; click to resume")
          : i18n._("Pause every job (the tray runner fires nothing)")
      }
      onClick={toggle}
    >
      {paused ? i18n._("Paused — Resume all") : i18n._("Pause all")}
    </Button>
  );
}
