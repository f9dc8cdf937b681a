import { configure } from "@testing-library/react";

// Every findBy*/waitFor waits for the state it looks for, as long as a loaded machine needs: the
// default 1 s once ran out on a busy machine before the page had rendered its data (issue #34).
// A wait ends as soon as the state is there, so a generous bound costs nothing when all is well.
configure({ asyncUtilTimeout: 15_000 });
