import "./design/tokens.css";
import "./design/base.css";
import "./ui/components/components.css";
import "./styles.css";
import { render } from "preact";
import { App } from "./ui/App";
import { initTheme } from "./ui/theme";

initTheme();
render(<App />, document.getElementById("app")!);
