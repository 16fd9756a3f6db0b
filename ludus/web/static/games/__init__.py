"""One ES module per game page; ``generic.js`` serves games that have none."""
