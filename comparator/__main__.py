from comparator.cli.main import main

main()
