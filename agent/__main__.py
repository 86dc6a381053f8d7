from agent.cli import exit_at_once, main

exit_at_once(main())
