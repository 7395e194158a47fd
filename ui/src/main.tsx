import "./design/tokens.css";
import "./design/base.css";
import "./ui/components/components.css";
import "./styles.css";
import { render } from "preact";
import { startI18n } from "./i18n";
import { App } from "./ui/App";
import { initTheme } from "./ui/theme";

initTheme();
// The first paint is already in the person's language: the catalogs load before it.
void startI18n()
  .catch((e) => console.error("the window's language could not be set up", e))
  .then(() => render(<App />, document.getElementById("app")!));
