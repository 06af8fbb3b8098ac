from comparator.cli import main

main()
